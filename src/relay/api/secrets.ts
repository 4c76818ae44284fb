import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Device secrets are 32 random bytes chosen by the app: a plain SHA-256 is enough to keep them out of the database
 * (nothing to brute-force), and comparing hashes in constant time leaks nothing of a stored one.
 */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret, 'utf8').digest('hex');

const UNKNOWN = hashSecret('no device has this secret');

/** Whether `secret` matches; the same work whether or not a device exists. */
export function secretMatches(secret: string, storedHash: string | undefined): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(storedHash ?? UNKNOWN, 'hex');
  return stored.length === given.length && timingSafeEqual(given, stored) && storedHash !== undefined;
}

/**
 * The token an `Authorization: Bearer <token>` header carries; null without one. The scheme's name in any case (RFC
 * 9110, 11.1 makes it case-insensitive), one or more spaces, then one run of non-space characters, taken as sent:
 * another scheme, no token, a second word, a tab or space around it is no token (docs/relay.md says the same).
 */
export const bearerToken = (header: string | undefined): string | null =>
  /^Bearer +(\S+)$/i.exec(header ?? '')?.[1] ?? null;
