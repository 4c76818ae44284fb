import webpush from 'web-push';
import type { PushSides } from '../../domain/relay/relay-message.ts';
import type { Urgency } from '../storage/deliveries.ts';
import type { PushSubscription } from '../storage/devices.ts';
import { pushPayload, pushTopic, pushTtl } from './payload.ts';

/**
 * Everything one push needs, as plain data (it crosses to a worker thread): the states it tells (one alert's, or the
 * sides of one transaction in one state), where it goes, and the VAPID Authorization header (signed on the main
 * thread, once per push service for hours).
 */
export interface PushJob {
  readonly deviceId: string;
  readonly alerts: PushSides;
  readonly urgency: Urgency;
  readonly subscription: Pick<PushSubscription, 'endpoint' | 'keys'>;
  readonly authorization: string;
  /** The app's origin, for a Declarative Web Push message's `navigate`; none: the older payload. */
  readonly appOrigin?: string | null;
  /** What is left of the state's lifetime, in seconds: a retry asks the push service to keep it only that long. */
  readonly ttlSeconds?: number;
  /**
   * The last moment (epoch ms) it may be posted: its relay's fence closes then (sender-options.ts). A push handed to a
   * busy thread may wait there for seconds; past this it is handed back unposted.
   */
  readonly notAfter?: number;
}

export interface PushRequest {
  readonly endpoint: string;
  readonly headers: Record<string, string>;
  readonly body: Uint8Array<ArrayBuffer>;
  /** The job's `notAfter`: a push posted again (http.ts) is checked against it once more. */
  readonly notAfter?: number;
}

/** One push: the payload encrypted for the subscription (RFC 8291 aes128gcm), with its TTL, urgency and Topic. */
export function pushRequest(job: PushJob): PushRequest {
  const { subscription, alerts } = job;
  const { cipherText } = webpush.encrypt(
    subscription.keys.p256dh,
    subscription.keys.auth,
    pushPayload(alerts, job.appOrigin ?? null),
    'aes128gcm',
  );
  return {
    endpoint: subscription.endpoint,
    headers: {
      TTL: String(job.ttlSeconds ?? pushTtl(alerts[0])),
      Urgency: job.urgency,
      Topic: pushTopic(
        job.deviceId,
        alerts.map((alert) => alert.id),
      ),
      'Content-Encoding': 'aes128gcm',
      'Content-Type': 'application/octet-stream',
      Authorization: job.authorization,
    },
    body: new Uint8Array(cipherText),
    ...(job.notAfter === undefined ? {} : { notAfter: job.notAfter }),
  };
}
