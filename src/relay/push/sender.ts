import { allDevices, deleteDevice, type PushSubscription } from '../storage/devices.ts';
import { holdDevice, markTold, queuedSends, retryLater, type QueuedSend } from '../storage/deliveries.ts';
import type { Database } from '../storage/sql.ts';
import { keepTrying } from '../../notify/keep-trying.ts';
import { InThreadPoster, type PushPoster } from './push-poster.ts';
import { SendQueue } from './send-queue.ts';
import { VapidTokens } from './vapid-tokens.ts';
import type { VapidKeys } from './vapid.ts';

export const MAX_TRIES = 5;
/**
 * Each push in flight waits a round trip to its push service (~100 ms to a public one): at 64 in flight a relay sent
 * at most ~600 a second, and a block's confirmations for thousands of devices left in waves.
 */
const CONCURRENCY = 256;

export interface SenderOptions {
  readonly db: Database;
  readonly vapid: VapidKeys;
  /** The push service forgot this device (404/410): the engine stops judging for it. */
  readonly forgotten: (deviceId: string) => Promise<void>;
  /** Where pushes are encrypted and posted (a WorkerPoster's threads); else on the event loop, with `fetch`. */
  readonly poster?: PushPoster;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /** First retry after a 5xx or a network failure; doubles each try. */
  readonly backoffMs?: number;
  /** Pushes in flight at once. */
  readonly concurrency?: number;
  readonly report?: (problem: string) => void;
  /** Each push the service accepted, with when its alert was learned (for the benchmark). */
  readonly onSent?: (send: QueuedSend, at: number) => void;
}

/**
 * Sends the queue of alert states: each is signed (VAPID, one token per push service for hours), encrypted (RFC 8291
 * aes128gcm) and posted to its device's push service (those two by the poster, on worker threads unless told
 * otherwise); recorded as told only once the service accepts it (201). The queue lives in memory, fed by the writes as they commit; the `deliveries` table stays the truth — a
 * starting sender takes up whatever it still holds as queued, and told marks are written in batches. Sends only to
 * endpoints that passed validation when the device registered, read at send time (a new subscription takes over).
 */
export class PushSender {
  private readonly subscriptions = new Map<string, PushSubscription>();
  private readonly queue: SendQueue;
  private readonly sending = new Set<Promise<void>>();
  private told: QueuedSend[] = [];
  private marking: Promise<void> | null = null;
  private stopped = false;
  private readonly now: () => number;
  private readonly poster: PushPoster;
  private readonly tokens: VapidTokens;

  constructor(private readonly options: SenderOptions) {
    this.now = options.now ?? Date.now;
    this.poster = options.poster ?? new InThreadPoster(options.fetch);
    this.tokens = new VapidTokens(options.vapid, this.now);
    this.queue = new SendQueue(this.now, () => this.pump());
  }

  /** Reads every device's subscription and takes up what is still queued (the relay stopped before sending it). */
  async start(): Promise<void> {
    for (const device of await allDevices(this.options.db)) this.subscriptions.set(device.id, device.subscription);
    this.enqueue(await queuedSends(this.options.db));
  }

  /** States stored and waiting, oldest first (see SendQueue for the order they leave in). */
  enqueue(sends: readonly QueuedSend[]): void {
    this.queue.add(sends);
    this.pump();
  }

  /** A device registered or changed its subscription: its pushes go to this one from now on. */
  subscribed(deviceId: string, subscription: PushSubscription): void {
    this.subscriptions.set(deviceId, subscription);
  }

  /** The device is gone (deleted, or its push service forgot it): nothing more is sent to it. */
  forget(deviceId: string): void {
    this.subscriptions.delete(deviceId);
    this.queue.forget(deviceId);
  }

  /** Resolves once the pushes in flight are answered and recorded (not those waiting for a later time). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.sending.size > 0) await Promise.all([...this.sending]);
      else if (this.marking) await this.marking;
      else return;
    }
  }

  stop(): void {
    this.stopped = true;
    this.queue.stop();
  }

  private pump(): void {
    const gone = (deviceId: string) => !this.subscriptions.has(deviceId);
    while (!this.stopped && this.sending.size < (this.options.concurrency ?? CONCURRENCY)) {
      const send = this.queue.next(gone);
      if (!send) return;
      const sending: Promise<void> = this.sendOne(send)
        .catch((error: unknown) => this.options.report?.(`Could not send a push: ${String(error)}`))
        .finally(() => {
          this.sending.delete(sending);
          this.queue.answered(send);
          this.pump();
        });
      this.sending.add(sending);
    }
  }

  private async sendOne(send: QueuedSend): Promise<void> {
    const { db } = this.options;
    const subscription = this.subscriptions.get(send.deviceId)!;
    const { status, retryAfter } = await this.poster.post({
      deviceId: send.deviceId,
      alert: send.alert,
      urgency: send.urgency,
      subscription,
      authorization: this.tokens.authorization(subscription.endpoint),
    });
    const now = this.now();
    if (status >= 200 && status < 300) {
      this.queue.release(send);
      this.told.push(send);
      this.markTold();
      this.options.onSent?.(send, now);
    } else if (status === 404 || status === 410) {
      if (this.subscriptions.get(send.deviceId)?.endpoint !== subscription.endpoint) {
        // The device subscribed anew meanwhile: the old subscription's end is not the device's.
        this.queue.again(send);
        return;
      }
      this.queue.release(send);
      this.forget(send.deviceId);
      await deleteDevice(db, send.deviceId);
      await this.options.forgotten(send.deviceId);
    } else if (status === 429) {
      const until = now + retryAfterMs(retryAfter, now);
      this.queue.hold(send.deviceId, until);
      await holdDevice(db, send.deviceId, until);
      this.queue.later({ ...send, notBefore: until });
    } else if (status === 0 || status >= 500) {
      const tries = send.tries + 1;
      const at = now + (this.options.backoffMs ?? 2000) * 2 ** (tries - 1);
      await retryLater(db, send, at, tries >= MAX_TRIES);
      if (tries >= MAX_TRIES) this.queue.release(send);
      else this.queue.later({ ...send, tries, notBefore: at });
    } else {
      // 400, 403, 413: this request will never be accepted; kept as failed for the app to fetch.
      this.options.report?.(`The push service refused a push with ${status}; not retried`);
      this.queue.release(send);
      await retryLater(db, send, now, true);
    }
  }

  /**
   * Told marks are written at once, and those accepted while one is written go together in the next (one statement
   * for any number). Until its mark is written a push accepted would be sent once more after a SIGKILL: the window
   * is kept to that one statement.
   */
  private markTold(): void {
    if (this.marking) return;
    this.marking = this.markAll().finally(() => {
      this.marking = null;
      if (this.told.length > 0) this.markTold();
    });
  }

  private async markAll(): Promise<void> {
    while (this.told.length > 0) {
      const batch = this.told;
      this.told = [];
      const at = this.now();
      // Until recorded they are still queued in the table, and a restart would send them once more: tried until stored.
      await keepTrying(() => markTold(this.options.db, batch, at), 'Recording pushes as told', this.options.report);
    }
  }
}

/** Retry-After in seconds or as an HTTP date; a minute when missing or unreadable. */
export function retryAfterMs(value: string | null, now: number): number {
  if (value && /^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = value ? Date.parse(value) : NaN;
  return Number.isFinite(date) ? Math.max(0, date - now) : 60_000;
}
