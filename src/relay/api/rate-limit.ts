/** Requests per client address per minute, counted in fixed one-minute windows. */
export class RateLimit {
  private windows = new Map<string, number>();
  private windowStart: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.windowStart = now();
  }

  /** Counts one request; returns the seconds to wait when over the limit, else 0. */
  take(client: string): number {
    const now = this.now();
    if (now - this.windowStart >= 60_000) {
      this.windows = new Map();
      this.windowStart = now;
    }
    const count = (this.windows.get(client) ?? 0) + 1;
    this.windows.set(client, count);
    return count > this.perMinute ? Math.ceil((this.windowStart + 60_000 - now) / 1000) : 0;
  }
}
