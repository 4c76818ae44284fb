/// <reference lib="webworker" />

/** Work queued per key: every change to the tray goes through one (tray.ts), one at a time. */
const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `work` after everything queued before it under the same key, while other keys go on.
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
