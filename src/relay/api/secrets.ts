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

/** The token an `Authorization: Bearer <token>` header carries (one run of non-space characters); null without one. */
export const bearerToken = (header: string | undefined): string | null =>
  // The scheme's name is case-insensitive (RFC 9110, 11.1); the token is taken as sent.
  /^Bearer +(\S+)$/i.exec(header ?? '')?.[1] ?? null;
