/** How long to wait between tries of something that failed: `firstMs` after the first failure, doubling to `maxMs`. */
export interface Backoff {
  readonly firstMs: number;
  readonly maxMs: number;
}

/**
 * The backoff's wait after the `failures`-th failure in a row (1: the first; 0 or less reads as 1), in milliseconds,
 * without jitter: `firstMs`, doubled after each further failure, never past `maxMs`. Unjittered is right where one
 * process retries its own platform (a worker thread that would not start, a page's notification hand-over, a
 * page's write to its own IndexedDB): nothing else fails in the same moment, so there is no crowd to spread.
 */
export const doubledWait = (backoff: Backoff, failures: number): number =>
  Math.min(backoff.maxMs, backoff.firstMs * 2 ** Math.min(30, Math.max(0, failures - 1)));

/**
 * The wait after the `failures`-th failure in a row (1: the first), in milliseconds, not rounded: the backoff's
 * doubled wait, jittered so that many tabs, devices or queued states that failed together do not come back in the
 * same moment. `'half'` waits between half and all of it; `'full'` anywhere from none to all of it.
 */
export function backoffDelay(
  backoff: Backoff,
  failures: number,
  random: () => number = Math.random,
  jitter: 'half' | 'full' = 'half',
): number {
  return jittered(doubledWait(backoff, failures), random, jitter);
}

/** A wait jittered: `'half'`, between half and all of it; `'full'`, anywhere from none to all of it. */
export const jittered = (ms: number, random: () => number = Math.random, jitter: 'half' | 'full' = 'half'): number =>
  jitter === 'full' ? random() * ms : ms / 2 + (random() * ms) / 2;
