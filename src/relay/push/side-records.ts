import type { Log } from '../log.ts';
import { giveUp, retryAt, type QueuedSend } from '../storage/deliveries.ts';
import type { Database, Sql } from '../storage/sql.ts';
import type { SendQueue } from './queue.ts';
import { lifetimeEnd, nextTry, type RetryPolicy } from './retry-policy.ts';

/**
 * What each side's row records when its push failed: one push may tell several sides of a transaction (queue.ts),
 * and each keeps its own delivery row, tries and dead-letter entry, exactly as a push of one alert would. Every
 * side's row is written in one transaction before the queue is touched: a write that fails (the database away) leaves
 * no side retried or given up and the others not, and the sender queues them all again, once each.
 */
export class SideRecords {
  /** States given up since start. */
  givenUp = 0;
  /**
   * States whose push went unanswered since start, each side of a push of several counted: each may reach its device
   * once more (itself tried again, or its alert's next state pushed twice, sender.ts).
   */
  unanswered = 0;

  constructor(
    private readonly db: Database,
    private readonly queue: SendQueue,
    private readonly retry: RetryPolicy,
    private readonly now: () => number,
    /** Whether the device's partition is being handed to another instance, asked at the moment it matters. */
    private readonly isLeaving: (deviceId: string) => boolean,
    private readonly log?: Log,
  ) {}

  /**
   * Each side tried again, all at the latest time any of them must wait (so that they come due and leave together),
   * or given up when its own next try would be past its lifetime. A side whose lifetime ends before that shared time
   * (learned earlier than the others, or not re-driven with them) keeps its own next try and leaves alone: carried
   * along, it would be pushed past its end. `unanswered`: the service may still take the push.
   */
  async retryLater(push: readonly QueuedSend[], answer: string, unanswered: boolean, waitMs: number | null) {
    const now = this.now();
    if (unanswered) {
      for (const send of push) this.queue.unanswered(send);
      this.unanswered += push.length;
    }
    const timed = push.map((send) => {
      const lived = send.since ? { ...send.alert, at: send.since } : send.alert;
      return { send, at: nextTry(this.retry, lived, send.tries + 1, now, waitMs), end: lifetimeEnd(this.retry, lived) };
    });
    const shared = Math.max(...timed.map((side) => side.at ?? 0));
    const retried = timed.flatMap(({ send, at, end }) =>
      at === null ? [] : [{ send, at: shared <= end ? shared : at }],
    );
    const expired = timed.filter((side) => side.at === null).map((side) => side.send);
    const failed = await this.atomically(push, async (sql) => {
      for (const { send, at } of retried) await retryAt(sql, send, at, answer);
      return this.giveUpRows(sql, expired, now, answer);
    });
    this.released(expired, failed, answer);
    for (const { send, at } of retried)
      // Handed over meanwhile (asked now: the writes above wait): left queued, for the new owner to send.
      if (this.isLeaving(send.deviceId)) this.queue.release(send);
      else this.queue.later({ ...send, tries: send.tries + 1, notBefore: at });
  }

  /**
   * Given up: on the dead-letter list, still in the device's log for the app to fetch. A state superseded while it
   * was in flight is not given up (its successor is what counts). Log lines name the kind, not the device: an outage
   * gives up thousands, counted as repeats of one line; each device's detail is on the dead-letter list.
   */
  async failAll(push: readonly QueuedSend[], answer: string): Promise<void> {
    const now = this.now();
    const failed = await this.atomically(push, (sql) => this.giveUpRows(sql, push, now, answer));
    this.released(push, failed, answer);
  }

  /** Several sides' writes in one transaction; one side's is one statement, as it always was. */
  private atomically<T>(push: readonly QueuedSend[], work: (sql: Sql) => Promise<T>): Promise<T> {
    const alertPath = this.db.within('alert-path');
    return push.length > 1 ? alertPath.transaction(work) : work(alertPath);
  }

  /** How many of these states were given up (not superseded meanwhile). */
  private async giveUpRows(sql: Sql, sends: readonly QueuedSend[], at: number, answer: string): Promise<number> {
    let failed = 0;
    for (const send of sends) failed += await giveUp(sql, send, at, answer);
    return failed;
  }

  private released(sends: readonly QueuedSend[], failed: number, answer: string): void {
    for (const send of sends) this.queue.release(send);
    for (let count = 0; count < failed; count++) {
      this.givenUp += 1;
      this.log?.warn('push given up', { answer });
    }
  }
}
