import { createHash } from 'node:crypto';
import type { RelayAlert } from '../storage/deliveries.ts';

export const MAX_PAYLOAD_BYTES = 3000;

/** The push payload: `{ v: 1, alert }`, its title and body shortened until it fits in 3,000 bytes. */
export function pushPayload(alert: RelayAlert): string {
  let { title, body } = alert;
  for (;;) {
    const text = JSON.stringify({ v: 1, alert: { ...alert, title, body } });
    if (Buffer.byteLength(text) <= MAX_PAYLOAD_BYTES) return text;
    if (body.length > 0) body = shorten(body, body.length > 200 ? body.length - 200 : 0);
    else title = shorten(title, Math.max(0, title.length - 50));
  }
}

const shorten = (text: string, length: number): string =>
  length <= 1 ? '' : `${[...text].slice(0, length - 1).join('')}…`;

/** Opaque (never an address): a later state of the same alert replaces an earlier one still waiting at the push service. */
export const pushTopic = (deviceId: string, alertId: string): string =>
  createHash('sha256').update(`${deviceId}|${alertId}`).digest('base64url').slice(0, 32);

export const pushTtl = (alert: RelayAlert): number => (alert.phase === 'pending' ? 3600 : 86_400);
