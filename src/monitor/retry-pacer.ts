import { backoffDelay } from '../domain/backoff.ts';

/**
 * When a failed sync is tried again: without waiting for the next reconnect (with a live feed there may be none, and
 * what the sync missed would stay missed), jittered so that tabs and devices that lost the same node do not come
 * back in step, doubling up to a ceiling because a phone's battery matters.
 */
export class RetryPacer {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** Failed syncs since the last success: the backoff grows with them. */
  private failures = 0;

  constructor(
    private readonly options: {
      readonly firstMs: number;
      readonly maxMs: number;
      readonly retry: () => void;
      /** When the next try is due (epoch ms), null when none waits. */
      readonly scheduled: (retryAt: number | null) => void;
      /** How far apart the feed should reconnect meanwhile (null: its own pace again), so both back off together. */
      readonly pace: (delayMs: number | null) => void;
      readonly now: () => number;
    },
  ) {}

  /** Whether a try is waiting: it owns the next attempt, and the node is not asked meanwhile. */
  get waiting(): boolean {
    return this.timer !== null;
  }

  later(): void {
    if (this.timer) return;
    this.failures += 1;
    const delay = Math.round(backoffDelay(this.options, this.failures));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.options.scheduled(null);
      this.options.retry();
    }, delay);
    this.options.scheduled(this.options.now() + delay);
    this.options.pace(delay);
  }

  /**
   * Tries now what waits for its next try (the device came online, the app came back into view), and resets the
   * backoff; nothing happens when nothing waits.
   */
  now(): void {
    if (!this.timer) return;
    this.stop();
    this.reset();
    this.options.retry();
  }

  /** A sync succeeded: the next failure starts from the first delay again. */
  reset(): void {
    this.failures = 0;
    this.options.scheduled(null);
    this.options.pace(null);
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
