import { MAX_PUSH_SIDES } from '../../domain/relay/relay-message.ts';
import { sendKey, type QueuedSend } from '../storage/deliveries.ts';
import { Fifo } from './fifo.ts';

/** Per device and alert: its newest state, how many of its states are held, one in flight and one waiting for it. */
interface AlertSends {
  newest: number;
  held: number;
  inFlight: boolean;
  /** The next state of the alert, due but waiting until the one in flight is answered. */
  parked: QueuedSend | null;
  /** The newest of its states whose last push went unanswered (the service may still take it, late), if any. */
  unanswered: number | null;
}

const keyOf = (send: QueuedSend): string => `${send.deviceId}\n${send.alert.id}`;

/** A device's sides of one transaction in one state: what one push tells together (none for a balance event). */
const pushKeyOf = ({ deviceId, alert }: QueuedSend): string | null =>
  alert.txId === null ? null : `${deviceId}\n${alert.network}\n${alert.txId}\n${alert.phase}`;

/** The states one push tells: one alert's, or the sides of one transaction in one state (all of one device). */
export type QueuedPush = readonly [QueuedSend, ...QueuedSend[]];

/**
 * The sender's queue, in memory. Two lanes: confirmed incoming transfers (urgency high) leave before everything
 * else (pending states, outgoing transfers), each lane oldest first, so a block's confirmations do not wait behind
 * the next block's pending states. Order is kept where it matters, within one alert: a state replaced by a newer one
 * of the same alert is dropped, and a state whose alert has one in flight waits until that one is answered — two
 * states of one alert are never in flight together, so the push service (which keeps the last one it received of a
 * Topic) never sees a pending state after its confirmation. A state that leaves takes along the other sides of its
 * transaction in its state that are due for its device (a transfer between two watched addresses: one push tells
 * both); each side is still answered, released and retried as a state of its own alert.
 */
export class SendQueue {
  private readonly high = new Fifo<QueuedSend>();
  private readonly normal = new Fifo<QueuedSend>();
  /** States let go by their alert's answered send: due already, they go first. */
  private readonly resumed = new Fifo<QueuedSend>();
  /** States whose time has not come (a retry's backoff, a push service's Retry-After). */
  private waiting: QueuedSend[] = [];
  private readonly alerts = new Map<string, AlertSends>();
  /** The states in the three lanes above, by pushKeyOf: where a leaving state finds the other sides to take along. */
  private readonly due = new Map<string, Set<QueuedSend>>();
  /** States taken along by another's push while still in a lane: skipped when the lane reaches them. */
  private readonly taken = new Set<QueuedSend>();
  private readonly heldUntil = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private timerAt: number | null = null;
  private stopped = false;

  constructor(
    private readonly now: () => number,
    /** Waiting states became due. */
    private readonly wake: () => void,
    /** Whether these states fit in one push (its payload's limit); sides beyond it go in a push of their own. */
    private readonly fits: (sends: QueuedPush) => boolean = () => true,
  ) {}

  /** States stored and waiting to be sent, oldest first. */
  add(sends: readonly QueuedSend[]): void {
    const now = this.now();
    for (const send of sends) {
      const alert = this.alerts.get(keyOf(send));
      if (alert) {
        alert.newest = Math.max(alert.newest, send.cursor);
        alert.held += 1;
      } else
        this.alerts.set(keyOf(send), { newest: send.cursor, held: 1, inFlight: false, parked: null, unanswered: null });
      if (send.notBefore > now) this.later(send);
      else this.ready(send);
    }
  }

  /**
   * The next push to send now, its states marked in flight until each is `answered`: confirmed incoming first,
   * skipping states a newer one replaced, those of devices `gone`, and those of devices held; a state whose alert has
   * one in flight is parked. The other sides of its transaction in its state that are due go with it.
   */
  next(gone: (deviceId: string) => boolean, maxSides = MAX_PUSH_SIDES): QueuedPush | undefined {
    const now = this.now();
    for (;;) {
      const send = this.shift();
      if (!send) return undefined;
      const alert = this.alerts.get(keyOf(send))!;
      if (alert.newest > send.cursor || gone(send.deviceId)) this.release(send);
      else if ((this.heldUntil.get(send.deviceId) ?? 0) > now)
        this.later({ ...send, notBefore: this.heldUntil.get(send.deviceId)! });
      else if (alert.inFlight) {
        if (alert.parked) this.release(alert.parked);
        alert.parked = send;
      } else {
        alert.inFlight = true;
        return this.withOtherSides(send, maxSides);
      }
    }
  }

  /**
   * The sides of `send`'s transaction in its state that are due now for its device (same device: not gone, not
   * held), each the newest of its alert with none in flight, as many as fit one push. Written in one flush, the two
   * sides of a transfer are due together; a side stored later leaves in a push of its own.
   */
  private withOtherSides(send: QueuedSend, maxSides: number): QueuedPush {
    const key = pushKeyOf(send);
    const push: [QueuedSend, ...QueuedSend[]] = [send];
    for (const other of (key && this.due.get(key)) || []) {
      if (push.length >= maxSides) break;
      const alert = this.alerts.get(keyOf(other))!;
      if (alert.inFlight || alert.newest > other.cursor || !this.fits([...push, other] as QueuedPush)) continue;
      alert.inFlight = true;
      this.taken.add(other);
      this.undue(other);
      push.push(other);
    }
    return push;
  }

  /** The next state of the lanes not taken along by another's push. */
  private shift(): QueuedSend | undefined {
    for (;;) {
      const send = this.resumed.shift() ?? this.high.shift() ?? this.normal.shift();
      if (!send || !this.taken.delete(send)) {
        if (send) this.undue(send);
        return send;
      }
    }
  }

  private undue(send: QueuedSend): void {
    const key = pushKeyOf(send);
    const sides = key === null ? undefined : this.due.get(key);
    if (sides?.delete(send) && sides.size === 0) this.due.delete(key!);
  }

  private lane(lane: Fifo<QueuedSend>, send: QueuedSend): void {
    lane.push(send);
    const key = pushKeyOf(send);
    if (key === null) return;
    const sides = this.due.get(key);
    if (sides) sides.add(send);
    else this.due.set(key, new Set([send]));
  }

  /** The push service answered this state (or could not be reached): the next state of its alert may go. */
  answered(send: QueuedSend): void {
    const alert = this.alerts.get(keyOf(send));
    if (!alert) return;
    alert.inFlight = false;
    if (alert.parked) this.lane(this.resumed, alert.parked);
    alert.parked = null;
    if (alert.held <= 0) this.alerts.delete(keyOf(send));
  }

  /**
   * Its push went unanswered (no answer within the deadline, the connection lost): the push service may still take
   * it, even after a later state of the same alert, and keep it as the Topic's last.
   */
  unanswered(send: QueuedSend): void {
    const alert = this.alerts.get(keyOf(send));
    if (alert) alert.unanswered = Math.max(alert.unanswered ?? send.cursor, send.cursor);
  }

  /**
   * The push service accepted this state. Whether it must be pushed once more: a state of its alert before it went
   * unanswered, and may reach the service after it; pushed again after this answer, it is the last the service takes.
   */
  accepted(send: QueuedSend): boolean {
    const alert = this.alerts.get(keyOf(send));
    if (alert?.unanswered == null || send.cursor < alert.unanswered) return false;
    const overtaken = send.cursor > alert.unanswered;
    alert.unanswered = null;
    return overtaken;
  }

  /** The queue no longer holds this state (told, given up, or its device is gone). */
  release(send: QueuedSend): void {
    const alert = this.alerts.get(keyOf(send));
    if (alert && --alert.held <= 0 && !alert.inFlight) this.alerts.delete(keyOf(send));
  }

  /**
   * Sent again as soon as possible (its device subscribed anew while it was in flight, its fence closed). A copy: a
   * side taken along into another's push is still in its own lane, marked to be dropped there, and the same object
   * in two lanes would leave twice.
   */
  again(send: QueuedSend): void {
    this.lane(this.resumed, { ...send });
  }

  /** Sent again at `send.notBefore`. */
  later(send: QueuedSend): void {
    this.waiting.push(send);
    if (this.timerAt === null || send.notBefore < this.timerAt) this.scheduleWaiting();
  }

  /** Nothing goes to the device before `until` (its push service asked to slow down). */
  hold(deviceId: string, until: number): void {
    this.heldUntil.set(deviceId, until);
  }

  /** The device is gone: every state of it is dropped. */
  forget(deviceId: string): void {
    this.heldUntil.delete(deviceId);
    this.drop((send) => send.deviceId === deviceId);
  }

  /** The states waiting here (not those in flight), by `sendKey`. */
  waitingKeys(): Set<string> {
    const keys = new Set<string>();
    const add = (send: QueuedSend) => void keys.add(sendKey(send));
    // Those taken along by another's push are in flight, not waiting.
    for (const lane of [this.resumed, this.high, this.normal])
      lane.forEach((send) => this.taken.has(send) || add(send));
    this.waiting.forEach(add);
    for (const alert of this.alerts.values()) if (alert.parked) add(alert.parked);
    return keys;
  }

  /** Drops every waiting state `gone` names. */
  drop(gone: (send: QueuedSend) => boolean): void {
    const keep = (send: QueuedSend) => !gone(send) || (this.release(send), false);
    // A state taken along by another's push leaves the lane, not the queue: it is in flight.
    const keepInLane = (send: QueuedSend) => !this.taken.delete(send) && (keep(send) || (this.undue(send), false));
    for (const lane of [this.resumed, this.high, this.normal]) lane.filter(keepInLane);
    this.waiting = this.waiting.filter(keep);
    for (const alert of this.alerts.values()) if (alert.parked && !keep(alert.parked)) alert.parked = null;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private ready(send: QueuedSend): void {
    this.lane(send.urgency === 'high' ? this.high : this.normal, send);
  }

  /** Wakes when the earliest waiting state is due, moves every due one to its lane. */
  private scheduleWaiting(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.timerAt = null;
    if (this.stopped || this.waiting.length === 0) return;
    const at = this.waiting.reduce((earliest, send) => Math.min(earliest, send.notBefore), Infinity);
    this.timerAt = at;
    this.timer = setTimeout(
      () => {
        const now = this.now();
        const waiting = this.waiting;
        this.waiting = [];
        for (const send of waiting) {
          if (send.notBefore <= now) this.ready(send);
          else this.waiting.push(send);
        }
        this.scheduleWaiting();
        this.wake();
      },
      Math.max(0, at - this.now()),
    );
  }
}
