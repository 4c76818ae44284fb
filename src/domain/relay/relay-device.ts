import type { AlertRules } from '../alerts/alert-rules.ts';
import { isNetwork, type Network } from '../network.ts';
import { err, ok, type Result } from '../result.ts';

/** The push subscription as the relay stores it (PushSubscription.toJSON()). */
export interface RelaySubscription {
  readonly endpoint: string;
  readonly expirationTime?: number | null;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** AlertRules on the wire: minimums as decimal strings of base units. */
export type WireRules = Omit<AlertRules, 'minimums'> & { readonly minimums: Readonly<Record<string, string>> };

export interface RelayWatch {
  readonly network: Network;
  readonly principal: string;
  readonly rules?: WireRules;
}

export interface DeviceRegistration {
  readonly subscription: RelaySubscription;
  readonly watches: readonly RelayWatch[];
}

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

/** The relay keeps at most this many watches per device. */
export const RELAY_MAX_WATCHES = 1000;

const DEVICE_ID = /^[A-Za-z0-9_-]{22,64}$/;
const SECRET = /^[A-Za-z0-9_-]{32,128}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export const isDeviceId = (value: unknown): value is string => typeof value === 'string' && DEVICE_ID.test(value);
export const isDeviceSecret = (value: unknown): value is string => typeof value === 'string' && SECRET.test(value);

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

/** Reads a browser's PushSubscription JSON into what the relay accepts. */
export function readSubscription(raw: unknown): Result<RelaySubscription, string> {
  if (typeof raw !== 'object' || raw === null) return err('the push subscription is not an object');
  const { endpoint, expirationTime, keys } = raw as Record<string, unknown>;
  if (typeof endpoint !== 'string' || !/^https?:\/\//.test(endpoint))
    return err('the push subscription has no http(s) endpoint');
  const { p256dh, auth } = (keys ?? {}) as Record<string, unknown>;
  if (typeof p256dh !== 'string' || !BASE64URL.test(p256dh) || typeof auth !== 'string' || !BASE64URL.test(auth))
    return err('the push subscription lacks its p256dh and auth keys');
  return ok({
    endpoint,
    expirationTime: typeof expirationTime === 'number' ? expirationTime : null,
    keys: { p256dh, auth },
  });
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
