import type { PushSides } from '../../domain/relay/relay-message.ts';
import { refusedOrigins, refuseEndpoint } from '../api/push-endpoint.ts';
import { allDevices, deleteDeviceAt, findDevice, type PushSubscription } from '../storage/devices.ts';
import { holdDevice, queuedSends, sendKey, type QueuedSend } from '../storage/deliveries.ts';
import { fitsOnePush } from './payload.ts';
import { PushAnswers } from './push-answers.ts';
import { InThreadPoster, type PushPoster } from './poster.ts';
import { DEFAULT_RETRY, readRetryAfter, remainingTtl, type RetryPolicy } from './retry-policy.ts';
import { SideRecords } from './side-records.ts';
import { SendQueue, type QueuedPush } from './queue.ts';
import { ToldMarks } from './told-marks.ts';
import type { SenderOptions } from './sender-options.ts';
import { VapidTokens } from './vapid-tokens.ts';

/**
 * Each push in flight waits a round trip to its push service (~100 ms to a public one): at 64 in flight a relay sent
 * at most ~600 a second, and a block's confirmations for thousands of devices left in waves.
 */
const CONCURRENCY = 256;

/**
 * Sends the queue of alert states: each is signed (VAPID, one token per push service for hours), encrypted (RFC 8291
 * aes128gcm) and posted to its device's push service (those two by the poster, on worker threads unless told
 * otherwise); recorded as told only once the service accepts it (201). The queue lives in memory, fed by the writes
 * as they commit; the `deliveries` table stays the truth — a starting sender takes up whatever it still holds as
 * queued, and told marks are written in batches. The endpoint is read at send time (a new subscription takes over)
 * and checked against the endpoint policy again. Failures are retried with backoff for as long as the push is worth
 * sending (its TTL), then given up to the dead-letter list.
 */
export class PushSender {
  private readonly subscriptions = new Map<string, PushSubscription>();
  private readonly queue: SendQueue;
  private readonly sending = new Set<Promise<void>>();
  /** The states in flight, by `sendKey`. */
  private readonly inFlight = new Set<string>();
  /** States in flight when a lapse found them claimed by another instance: not sent again if handed back. */
  private readonly disowned = new Set<string>();
  /** Each push in flight, by `sendKey`. */
  private readonly flying = new Map<string, Promise<void>>();
  /** Devices being handed to another instance (`handOver`): a push of theirs that fails is not tried again here. */
  private readonly leaving = new Set<(deviceId: string) => boolean>();
  private readonly marks: ToldMarks;
  private stopped = false;
  private readonly now: () => number;
  private readonly poster: PushPoster;
  private readonly tokens: VapidTokens;
  private readonly retry: RetryPolicy;
  /** Pushes by the push service's answer ("201", "503", "unreachable", …) since start, and the failures in a row. */
  readonly answers: PushAnswers;
  private readonly records: SideRecords;

  constructor(private readonly options: SenderOptions) {
    this.now = options.now ?? Date.now;
    this.answers = new PushAnswers(options.failing);
    this.retry = { ...DEFAULT_RETRY, ...options.retry };
    this.poster = options.poster ?? new InThreadPoster(options.fetch);
    this.tokens = new VapidTokens(options.vapid, this.now);
    // Sides of a transaction go together while their payload fits (their words are then never cut for it).
    const fits = (push: QueuedPush) => fitsOnePush(sidesOf(push), options.appOrigin ?? null);
    this.queue = new SendQueue(this.now, () => this.pump(), fits);
    const leaving = (id: string) => this.isLeaving(id);
    this.records = new SideRecords(options.db, this.queue, this.retry, this.now, leaving, options.log);
    this.marks = new ToldMarks(options.db, this.now, this.retry.backoffMs, () => this.stopped, options.log);
  }

  /** States given up since start. */
  get givenUp(): number {
    return this.records.givenUp;
  }

  /** States whose push went unanswered since start (each side of a push): each may reach its device once more. */
  get unansweredStates(): number {
    return this.records.unanswered;
  }

  /** Reads every device's subscription and takes up what is still queued (the relay stopped before sending it). */
  async start(): Promise<void> {
    const devices = await allDevices(this.options.db);
    for (const device of devices) this.subscriptions.set(device.id, device.subscription);
    const endpoints = devices.map((device) => device.subscription.endpoint);
    for (const [origin, devices] of refusedOrigins(endpoints, this.options.pushAllow ?? []))
      this.options.log?.warn('devices on a refused push service', {
        origin,
        devices,
        message: 'their pushes go to the dead-letter list; allow the origin with --push-allow to send them',
      });
    if (this.options.takeUpQueued ?? true) this.enqueue(await queuedSends(this.options.db));
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
      else if (this.marks.writing) await this.marks.writing;
      else return;
    }
  }

  stop(): void {
    this.stopped = true;
    this.queue.stop();
  }

  /**
   * Its instance no longer judges for these devices (their partition went to another): what waits for them is
   * dropped, and it resolves once their pushes in flight are answered and the accepted ones marked told. The states
   * left queued are then the new owner's to claim and send, in order with the states it stores itself: sent from two
   * instances, an older state of an alert could reach the push service after a newer one.
   */
  async handOver(gone: (deviceId: string) => boolean): Promise<void> {
    this.leaving.add(gone);
    try {
      this.queue.drop((send) => gone(send.deviceId));
      const deviceOf = (key: string) => key.slice(0, key.indexOf('\n'));
      await Promise.all([...this.flying].filter(([key]) => gone(deviceOf(key))).map(([, flying]) => flying));
      // Anything queued again while those were answered goes too.
      this.queue.drop((send) => gone(send.deviceId));
      await this.marks.written();
    } finally {
      this.leaving.delete(gone);
    }
  }

  /** Whether the device's partition is being handed to another instance (`handOver`), asked when it matters. */
  private isLeaving(deviceId: string): boolean {
    return [...this.leaving].some((gone) => gone(deviceId));
  }

  /** A state to send again from here, unless its device is being handed over: then it is the new owner's. */
  private again(send: QueuedSend): void {
    if (this.isLeaving(send.deviceId)) this.queue.release(send);
    else this.queue.again(send);
  }

  /** Its fence opened again: what waits is sent. */
  resume(): void {
    this.pump();
  }

  /**
   * After its instance's heartbeat lapsed: drops every waiting state no longer claimed in its name (another instance
   * took it over and sends it). `claimed` reads the claims after the states waiting were listed: a state stored and
   * handed over meanwhile was claimed before that read, or is not in the list.
   */
  async keepClaimed(claimed: () => Promise<ReadonlySet<string>>): Promise<void> {
    const listed = this.queue.waitingKeys();
    const flying = new Set(this.inFlight);
    const still = await claimed();
    this.queue.drop((send) => (listed.has(sendKey(send)) || flying.has(sendKey(send))) && !still.has(sendKey(send)));
    // Those still on a thread come back unposted (their fence closed) or answered; the first are not sent again.
    for (const key of flying) if (this.inFlight.has(key) && !still.has(key)) this.disowned.add(key);
  }

  private pump(): void {
    const gone = (deviceId: string) => !this.subscriptions.has(deviceId);
    const { fence } = this.options;
    while (
      !this.stopped &&
      this.sending.size < (this.options.concurrency ?? CONCURRENCY) &&
      (fence === undefined || fence() > this.now())
    ) {
      const push = this.queue.next(gone);
      if (!push) return;
      for (const send of push) this.inFlight.add(sendKey(send));
      const sending: Promise<void> = this.sendPush(push)
        .catch((error: unknown) => {
          // Its outcome could not be stored (the database is away): it stays queued and is tried again.
          this.options.log?.error('push outcome not stored', { message: String(error) });
          const { deviceId } = push[0];
          if (!this.stopped && !this.isLeaving(deviceId) && this.subscriptions.has(deviceId))
            for (const send of push) this.queue.later({ ...send, notBefore: this.now() + this.retry.backoffMs });
        })
        .finally(() => {
          this.sending.delete(sending);
          for (const send of push) {
            this.flying.delete(sendKey(send));
            this.inFlight.delete(sendKey(send));
            this.disowned.delete(sendKey(send));
            this.queue.answered(send);
          }
          this.pump();
        });
      this.sending.add(sending);
      for (const send of push) this.flying.set(sendKey(send), sending);
    }
  }

  /**
   * One push: one alert's state, or the sides of one transaction in one state (one notification on the device). The
   * push service's answer is the same for every side, and each side's row records it as its own.
   */
  private async sendPush(given: QueuedPush): Promise<void> {
    const { db, log } = this.options;
    const deviceId = given[0].deviceId;
    const subscription = this.subscriptions.get(deviceId)!;
    const refused = refuseEndpoint(subscription.endpoint, this.options.pushAllow ?? []);
    if (refused) {
      // Registered under an allow-list this relay no longer has: kept for an operator, never sent.
      log?.warn('push endpoint refused', { origin: new URL(subscription.endpoint).origin });
      return this.records.failAll(given, `endpoint refused: ${refused}`);
    }
    let outcome: Awaited<ReturnType<PushPoster['post']>>;
    try {
      outcome = await this.poster.post({
        deviceId,
        alerts: sidesOf(given),
        urgency: given.some((send) => send.urgency === 'high') ? 'high' : 'normal',
        subscription,
        authorization: this.tokens.authorization(subscription.endpoint),
        appOrigin: this.options.appOrigin ?? null,
        // As long as its longest-lived side is worth telling: a side learned later is not lost with an older one's end.
        ttlSeconds: Math.max(...given.map((send) => remainingTtl(send, this.now()))),
        ...(this.options.fence ? { notAfter: this.options.fence() } : {}),
      });
    } catch (error) {
      if (this.stopped) return;
      // Its keys cannot encrypt (registered before they were checked): it would fail on every start.
      log?.warn('push keys unusable', { message: String(error) });
      return this.records.failAll(given, 'unusable keys');
    }
    const { status, retryAfter } = outcome;
    const accepted = status >= 200 && status < 300;
    if (outcome.fenced) this.answers.count('fenced', this.now());
    // A lapse found another instance claiming a side while it was on a thread: that instance retries or gives it up,
    // so this one neither writes to its row nor sends it again (a push it had accepted is still marked told below).
    const push = accepted ? given : given.filter((send) => !this.disowned.has(sendKey(send)));
    if (push.length < given.length) for (const send of given) if (!push.includes(send)) this.queue.release(send);
    const [first] = push;
    if (!first) return;
    // Not posted, its fence closed on the way: sent once the fence opens again (by the new owner, if handed over).
    if (outcome.fenced) return push.forEach((send) => this.again(send));
    const answer = status === 0 ? 'unreachable' : String(status);
    const now = this.now();
    this.answers.count(answer, now);
    if (accepted) {
      for (const send of push) {
        const again = this.queue.accepted(send);
        this.queue.release(send);
        this.marks.add(send);
        this.options.onSent?.(send, now);
        // An earlier state of its alert went unanswered and may reach the service after this one (a loaded service
        // answers late, or takes what it read after the connection was given up): this one goes once more, after
        // this answer, so that the service keeps it and not the earlier state. One repeat for each push unanswered.
        if (again && !this.isLeaving(deviceId)) this.queue.add([{ ...send, notBefore: 0 }]);
      }
    } else if (status === 404 || status === 410) {
      if (this.subscriptions.get(deviceId)?.endpoint !== subscription.endpoint) {
        // The device subscribed anew meanwhile: the old subscription's end is not the device's.
        return push.forEach((send) => this.again(send));
      }
      if (!(await deleteDeviceAt(db, deviceId, subscription.endpoint))) {
        // Registered anew between the push and its answer (the database has it before this sender hears of it):
        // the states go to the subscription stored now; a device deleted meanwhile is simply gone.
        const current = await findDevice(db, deviceId);
        if (!current) return push.forEach((send) => this.queue.release(send));
        this.subscriptions.set(deviceId, current.subscription);
        return push.forEach((send) => this.again(send));
      }
      log?.info('device forgotten', { answer });
      push.forEach((send) => this.queue.release(send));
      // A registration that came in after the delete (a new row, its subscription told to this sender) stays.
      if (this.subscriptions.get(deviceId)?.endpoint !== subscription.endpoint) return;
      this.forget(deviceId);
      await this.options.forgotten(deviceId);
    } else if (status === 429 || status === 0 || status >= 500) {
      const waitMs = readRetryAfter(retryAfter, now);
      log?.warn('push service failed', { answer, retryAfterMs: waitMs });
      if (waitMs !== null) {
        // The service asked for a pause: nothing more goes to this device before then.
        this.queue.hold(deviceId, now + waitMs);
        await holdDevice(db, deviceId, now + waitMs);
      }
      await this.records.retryLater(push, answer, status === 0, waitMs);
    } else {
      // 400, 403, 413: this request will never be accepted.
      log?.warn('push refused', { answer });
      await this.records.failAll(push, answer);
    }
  }
}

const sidesOf = (push: QueuedPush): PushSides => push.map((send) => send.alert) as unknown as PushSides;
