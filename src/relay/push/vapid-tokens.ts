import webpush from 'web-push';
import type { VapidKeys } from './vapid.ts';

/** How long a VAPID token is valid (RFC 8292 allows at most 24 hours), and how long before its end a new one is made. */
const TOKEN_SECONDS = 12 * 3600;
const RENEW_SECONDS = 3600;

/**
 * The VAPID Authorization header for each push service: one ES256 signature per service origin every few hours,
 * instead of one per push. The token names only the origin (`aud`), the expiry and the relay's contact.
 */
export class VapidTokens {
  private readonly byAudience = new Map<string, { header: string; expires: number }>();

  constructor(
    private readonly keys: VapidKeys,
    private readonly now: () => number = Date.now,
  ) {}

  authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const now = Math.floor(this.now() / 1000);
    const kept = this.byAudience.get(audience);
    if (kept && kept.expires - now > RENEW_SECONDS) return kept.header;
    const expires = now + TOKEN_SECONDS;
    const { subject, publicKey, privateKey } = this.keys;
    const header = webpush.getVapidHeaders(
      audience,
      subject,
      publicKey,
      privateKey,
      'aes128gcm',
      expires,
    ).Authorization;
    this.byAudience.set(audience, { header, expires });
    return header;
  }
}
