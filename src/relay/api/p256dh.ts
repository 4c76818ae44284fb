import { createECDH } from 'node:crypto';

/**
 * Why a subscription's `p256dh` cannot be encrypted to, or null when it can: it must be an uncompressed P-256 point
 * (65 bytes, 0x04 first) on the curve. One that is not would make every push to the device throw at encryption.
 */
export function refuseP256dh(p256dh: string): string | null {
  const bytes = Buffer.from(p256dh, 'base64url');
  if (bytes.length !== 65 || bytes[0] !== 4)
    return `must be an uncompressed P-256 public key: 65 bytes starting with 0x04 (got ${bytes.length} bytes${bytes.length > 0 ? ` starting with 0x${bytes[0]!.toString(16).padStart(2, '0')}` : ''})`;
  try {
    // Agreeing a secret with it is what encryption will do: it fails for a point off the curve.
    const probe = createECDH('prime256v1');
    probe.generateKeys();
    probe.computeSecret(bytes);
    return null;
  } catch {
    return 'not a point on the P-256 curve; send the key PushSubscription.getKey("p256dh") gave';
  }
}
