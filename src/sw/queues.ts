/// <reference lib="webworker" />

/** Work queued per key: one alert's states (with both sides of a transfer), or the summaries on screen. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after everything queued before it under the same key (a notification's tag: the states of one alert, or
 * one summary as it grows), while other keys go on: one address's alert does not wait for another's.
 */
export function serially<T>(work: () => Promise<T>, key = ''): Promise<T> {
  const next = (queues.get(key) ?? Promise.resolve()).then(work, work);
  const tail = next.catch(() => undefined);
  queues.set(key, tail);
  void tail.then(() => {
    if (queues.get(key) === tail) queues.delete(key);
  });
  return next;
}

/** Resolves once everything queued so far, under every key, is done. */
export const allSettled = (): Promise<unknown> => Promise.all([...queues.values()]);

/** Summaries and retellings, and every change to a summary on screen, go one at a time through this queue. */
export const SUMMARIES = 'summaries';
