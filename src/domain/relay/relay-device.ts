import type { AlertRules } from '../alerts/alert-rules.ts';
import { isNetwork, type Network } from '../network.ts';
import { err, ok, type Result } from '../result.ts';
import {
  DEVICE_ID,
  DEVICE_SECRET,
  describeIssue,
  readDeviceRegistration,
  RELAY_MAX_WATCHES,
  subscriptionSchema,
  type DeviceRegistration,
  type RelaySubscription,
  type RelayWatch,
  type WireRules,
} from './device-schema.ts';

export type { DeviceRegistration, RelaySubscription, RelayWatch, WireRules } from './device-schema.ts';
export { RELAY_MAX_WATCHES } from './device-schema.ts';

/** An address of the list the relay does not watch, and why (it follows no node of that network). */
export interface UnwatchedAddress {
  readonly network: Network;
  readonly principal: string;
  readonly reason: string;
}

/**
 * The relay's `unwatched` answer, read leniently: an older relay sends none (it refused such lists whole), and an
 * entry that does not read is left out rather than losing the registration that did succeed.
 */
export function readUnwatched(raw: unknown): UnwatchedAddress[] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((item: unknown) => {
    const { network, principal, reason } = (item ?? {}) as Record<string, unknown>;
    if (!isNetwork(network) || typeof principal !== 'string' || typeof reason !== 'string') return [];
    return [{ network, principal: principal.slice(0, 200), reason: reason.slice(0, 300) }];
  });
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const isDeviceId = (value: unknown): value is string => typeof value === 'string' && DEVICE_ID.test(value);
export const isDeviceSecret = (value: unknown): value is string =>
  typeof value === 'string' && DEVICE_SECRET.test(value);

export const toWireRules = (rules: AlertRules): WireRules => ({
  ...rules,
  minimums: Object.fromEntries(Object.entries(rules.minimums).map(([asset, value]) => [asset, value.toString()])),
});

/** What the relay is told: each watched address with its rules, nothing else (no labels). */
export function relayWatches(
  entries: readonly { readonly network: Network; readonly principal: string }[],
  rulesFor: (network: Network, principal: string) => AlertRules,
): Result<RelayWatch[], string> {
  if (entries.length > RELAY_MAX_WATCHES)
    return err(`The relay follows at most ${RELAY_MAX_WATCHES.toLocaleString('en-US')} addresses per device.`);
  return ok(
    entries.map(({ network, principal }) => ({
      network,
      principal,
      rules: toWireRules(rulesFor(network, principal)),
    })),
  );
}

/** Reads a browser's PushSubscription JSON with the relay's own schema: what it would refuse is refused here. */
export function readSubscription(raw: unknown): Result<RelaySubscription, string> {
  const read = subscriptionSchema.read(raw, 'subscription');
  if (!read.ok) return err(describeIssue(read.error));
  return ok({ ...read.value, expirationTime: read.value.expirationTime ?? null });
}

/** The request as built, checked against the wire contract the relay reads it with, before it is sent. */
export function deviceRegistration(
  subscription: RelaySubscription,
  watches: readonly RelayWatch[],
): Result<DeviceRegistration, string> {
  const checked = readDeviceRegistration({ subscription, watches });
  return checked.ok ? checked : err(describeIssue(checked.error));
}

/** base64url without padding, as the relay expects ids and secrets. */
export function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The VAPID public key as bytes for PushManager.subscribe: an uncompressed P-256 point (65 bytes, 0x04 first). */
export function vapidKeyBytes(key: string): Result<Uint8Array<ArrayBuffer>, string> {
  if (!BASE64URL.test(key)) return err('the relay’s push key is not base64url text');
  let binary: string;
  try {
    binary = atob(key.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (key.length % 4)) % 4));
  } catch {
    return err('the relay’s push key is not valid base64url');
  }
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  if (bytes.length !== 65 || bytes[0] !== 4)
    return err('the relay’s push key is not an uncompressed P-256 public key (65 bytes starting with 0x04)');
  return ok(bytes);
}
