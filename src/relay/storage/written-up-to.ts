/**
 * What a gathering writer (told marks, snapshots) has been handed and what it has stored, counted, so that a caller
 * waits for the writes covering what it handed over before it asked, not for the writer to fall idle: under steady
 * traffic a writer that gathers for a few ms before each write is never idle, and a hand-over waiting for that would
 * wait as long as the traffic lasts.
 */
export class WrittenUpTo {
  private handed = 0;
  private stored = 0;
  private waiters: (() => void)[] = [];

  /** Counts `count` more handed over; returns the count so far, which a write taking all of them covers. */
  handedOver(count = 1): number {
    this.handed += count;
    return this.handed;
  }

  /** How many have been handed over so far: a write that takes everything waiting now covers up to here. */
  get upTo(): number {
    return this.handed;
  }

  /** A write covering everything handed over up to `upTo` committed. */
  storedUpTo(upTo: number): void {
    if (upTo > this.stored) this.stored = upTo;
    this.attemptEnded();
  }

  /** A write ended, stored or not, or the writer stopped: those waiting look again. */
  attemptEnded(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Resolves once what was handed over before the call is stored, or `writing` says nothing will store it. */
  async written(writing: () => boolean): Promise<void> {
    const target = this.handed;
    while (this.stored < target && writing()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}
