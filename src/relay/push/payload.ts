import { createHash } from 'node:crypto';
import { alertPath } from '../../domain/alerts/alert-path.ts';
import { itemTag } from '../../domain/text/notification-content.ts';
import { DECLARATIVE_PUSH, RELAY_PUSH_DATA_VERSION, RELAY_PUSH_VERSION } from '../../domain/relay/relay-message.ts';
import type { RelayAlert } from '../storage/deliveries.ts';

/**
 * A push's plaintext limit: push services take 4,096 bytes of aes128gcm body, of which the header (86), the record's
 * delimiter (1) and its tag (16) take 103, and the relay adds no padding.
 */
export const MAX_PAYLOAD_BYTES = 3993;

/**
 * The push payload. With the app's origin known, a Declarative Web Push message (Safari and iOS 18.4+ show it even
 * when the service worker is not run; `mutable` lets a worker that runs word it with the user's labels): its
 * `navigate` is the app's origin and the path built by the rule the worker uses. Without an origin, `{ v: 1, alert }`.
 * Too long, it loses first the facts (the device then shows these words), then body, then title characters.
 */
export function pushPayload(alert: RelayAlert, appOrigin: string | null = null): string {
  let { title, body } = alert;
  let facts = alert.facts;
  for (;;) {
    const text = appOrigin
      ? declarative({ ...alert, title, body, facts }, appOrigin)
      : JSON.stringify({ v: RELAY_PUSH_VERSION, alert: { ...alert, title, body, facts } });
    if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES) return text;
    if (facts) facts = undefined;
    else if (body.length > 0) body = shorten(body, body.length > 200 ? body.length - 200 : 0);
    else if (title.length > 0) title = shorten(title, Math.max(0, title.length - 50));
    else return text;
  }
}

function declarative(alert: RelayAlert, appOrigin: string): string {
  // The relay's path stays out: a device builds its own (alertPath), and so does `navigate` here.
  const { cursor, id, network, principal, txId, phase, at, facts, title, body, afterRevert } = alert;
  const data = {
    cursor,
    id,
    network,
    principal,
    txId,
    phase,
    at,
    ...(facts ? { facts } : {}),
    ...(afterRevert ? { afterRevert } : {}),
  };
  return JSON.stringify({
    web_push: DECLARATIVE_PUSH,
    notification: {
      // The declarative parser refuses an empty title: the message would then reach no one where no worker runs.
      title: title || 'Stacks Watch',
      body,
      navigate: `${appOrigin}${alertPath(alert)}`,
      tag: itemTag(alert.id),
      lang: 'en',
      data: { v: RELAY_PUSH_DATA_VERSION, alert: data },
    },
    mutable: true,
  });
}

const shorten = (text: string, length: number): string =>
  length <= 1 ? '' : `${[...text].slice(0, length - 1).join('')}…`;

/** Opaque (never an address): a later state of the same alert replaces an earlier one still waiting at the push service. */
export const pushTopic = (deviceId: string, alertId: string): string =>
  createHash('sha256').update(`${deviceId}|${alertId}`).digest('base64url').slice(0, 32);

export const pushTtl = (alert: RelayAlert): number => (alert.phase === 'pending' ? 3600 : 86_400);
