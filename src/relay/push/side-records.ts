import type { Log } from '../log.ts';
import { giveUp, retryAt, type QueuedSend } from '../storage/deliveries.ts';
import type { Database } from '../storage/sql.ts';
import type { SendQueue } from './queue.ts';
import { nextTry, type RetryPolicy } from './retry-policy.ts';

/**
 * What each side's row records when its push failed: one push may tell several sides of a transaction (queue.ts),
 * and each keeps its own delivery row, tries and dead-letter entry, exactly as a push of one alert would.
 */
export class SideRecords {
  /** States given up since start. */
  givenUp = 0;

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
   * or given up when its own next try would be past its lifetime.
   */
  async retryLater(push: readonly QueuedSend[], answer: string, unanswered: boolean, waitMs: number | null) {
    const now = this.now();
    const tries = (send: QueuedSend) => send.tries + 1;
    const times = push.map((send) =>
      nextTry(this.retry, send.since ? { ...send.alert, at: send.since } : send.alert, tries(send), now, waitMs),
    );
    const at = Math.max(...times.map((time) => time ?? 0));
    for (const [index, send] of push.entries()) {
      if (unanswered) this.queue.unanswered(send);
      if (times[index] === null) {
        await this.fail(send, answer);
        continue;
      }
      await retryAt(this.db, send, at, answer);
      // Handed over meanwhile (asked now: the writes above wait): left queued, for the new owner to send.
      if (this.isLeaving(send.deviceId)) this.queue.release(send);
      else this.queue.later({ ...send, tries: tries(send), notBefore: at });
    }
  }

  async failAll(push: readonly QueuedSend[], answer: string): Promise<void> {
    for (const send of push) await this.fail(send, answer);
  }

  /**
   * Given up: on the dead-letter list, still in the device's log for the app to fetch. A state superseded while it
   * was in flight is not given up (its successor is what counts). Log lines name the kind, not the device: an outage
   * gives up thousands, counted as repeats of one line; each device's detail is on the dead-letter list.
   */
  async fail(send: QueuedSend, answer: string): Promise<void> {
    const failed = await giveUp(this.db, send, this.now(), answer);
    this.queue.release(send);
    if (failed === 0) return;
    this.givenUp += 1;
    this.log?.warn('push given up', { answer });
  }
}
