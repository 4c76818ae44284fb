import webpush from 'web-push';
import { deleteDevice } from '../storage/devices.ts';
import { dueSends, holdDevice, markTold, nextDueAt, retryLater, type QueuedSend } from '../storage/deliveries.ts';
import type { Database } from '../storage/sql.ts';
import { pushPayload, pushTopic, pushTtl } from './push-message.ts';
import type { VapidKeys } from './vapid.ts';

export const MAX_TRIES = 5;
const BATCH = 64;
const TIMEOUT_MS = 15_000;

export interface SenderOptions {
  readonly db: Database;
  readonly vapid: VapidKeys;
  /** The push service forgot this device (404/410): the engine stops judging for it. */
  readonly forgotten: (deviceId: string) => Promise<void>;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /** First retry after a 5xx or a network failure; doubles each try. */
  readonly backoffMs?: number;
  readonly concurrency?: number;
  readonly report?: (problem: string) => void;
  /** Each push the service accepted, with when its alert was learned (for the benchmark). */
  readonly onSent?: (send: QueuedSend, at: number) => void;
}

/**
 * Drains the send queue (the `deliveries` table): each queued state is encrypted (RFC 8291 aes128gcm), signed
 * (VAPID) and posted to its device's push service; recorded as told only once the service accepts it (201).
 * Sends only to endpoints that passed validation when the device registered.
 */
export class PushSender {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly now: () => number;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: SenderOptions) {
    this.now = options.now ?? Date.now;
    this.fetch = options.fetch ?? ((...args) => globalThis.fetch(...args));
  }

  /** Something was queued or became due: drain (once at a time; a wake during a drain drains again). */
  wake(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain().finally(() => {
      this.running = null;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
  }

  private async drain(): Promise<void> {
    try {
      for (;;) {
        const due = await dueSends(this.options.db, this.now(), BATCH);
        if (due.length === 0 || this.stopped) break;
        await inParallel(due, this.options.concurrency ?? 16, (send) => this.sendOne(send));
      }
      await this.scheduleNext();
    } catch (error) {
      this.options.report?.(`Could not send pushes: ${String(error)}`);
      this.schedule(5000);
    }
  }

  private async scheduleNext(): Promise<void> {
    const at = await nextDueAt(this.options.db);
    if (at !== null) this.schedule(Math.max(0, at - this.now()));
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.wake();
    }, delayMs);
  }

  private async sendOne(send: QueuedSend): Promise<void> {
    const { db, vapid } = this.options;
    const details = webpush.generateRequestDetails(
      { endpoint: send.endpoint, keys: send.keys },
      pushPayload(send.alert),
      {
        TTL: pushTtl(send.alert),
        urgency: send.urgency,
        topic: pushTopic(send.deviceId, send.alert.id),
        vapidDetails: vapid,
      },
    );
    let status: number;
    let retryAfter: string | null = null;
    try {
      const response = await this.fetch(details.endpoint, {
        method: 'POST',
        headers: details.headers as Record<string, string>,
        body: new Uint8Array(details.body as Buffer),
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      status = response.status;
      retryAfter = response.headers.get('retry-after');
      await response.body?.cancel();
    } catch {
      status = 0;
    }
    const now = this.now();
    if (status >= 200 && status < 300) {
      await markTold(db, send, now);
      this.options.onSent?.(send, now);
    } else if (status === 404 || status === 410) {
      await deleteDevice(db, send.deviceId);
      await this.options.forgotten(send.deviceId);
    } else if (status === 429) {
      await holdDevice(db, send.deviceId, now + retryAfterMs(retryAfter, now));
    } else if (status === 0 || status >= 500) {
      const tries = send.tries + 1;
      await retryLater(db, send, now + (this.options.backoffMs ?? 2000) * 2 ** (tries - 1), tries >= MAX_TRIES);
    } else {
      // 400, 403, 413: this request will never be accepted; kept as failed for the app to fetch.
      this.options.report?.(`The push service refused a push with ${status}; not retried`);
      await retryLater(db, send, now, true);
    }
  }
}

/** Retry-After in seconds or as an HTTP date; a minute when missing or unreadable. */
export function retryAfterMs(value: string | null, now: number): number {
  if (value && /^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = value ? Date.parse(value) : NaN;
  return Number.isFinite(date) ? Math.max(0, date - now) : 60_000;
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++] as T);
    }),
  );
}
