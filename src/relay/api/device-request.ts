import { parsePrincipal } from '../../domain/address/address.ts';
import { describeAddressError } from '../../domain/address/address-messages.ts';
import { DEFAULT_RULES, type AlertRules } from '../../domain/alerts/alert-rules.ts';
import { isNetwork } from '../../domain/network.ts';
import { err, ok, type Result } from '../../domain/result.ts';
import type { PushSubscription, Watch } from '../storage/devices.ts';
import { refuseP256dh } from './p256dh.ts';
import { refuseEndpoint } from './push-endpoint.ts';
import { RULE_FLAGS } from '../../domain/alerts/rules-record.ts';

export const MAX_WATCHES = 1000;
export const DEVICE_ID = /^[A-Za-z0-9_-]{22,64}$/;
export const SECRET = /^[A-Za-z0-9_-]{32,128}$/;
const BASE64URL = /^[A-Za-z0-9_-]+=*$/;
/** The alert rules' switches, as every device and file carries them. */
const FLAGS = RULE_FLAGS;

export interface DeviceRequest {
  readonly subscription: PushSubscription;
  readonly watches: readonly Watch[];
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads `PUT /v1/devices/{id}`'s body; every refusal says which field was wrong and what is expected. */
export function readDeviceRequest(body: unknown, allowedOrigins: readonly string[]): Result<DeviceRequest, string> {
  if (!isRecord(body)) return err('the body must be a JSON object with "subscription" and "watches"');
  const subscription = readSubscription(body['subscription'], allowedOrigins);
  if (!subscription.ok) return subscription;
  const list = body['watches'];
  if (!Array.isArray(list)) return err('"watches" must be an array of { network, principal, rules? }');
  if (list.length > MAX_WATCHES) return err(`"watches" has ${list.length} entries; at most ${MAX_WATCHES} are allowed`);
  const watches: Watch[] = [];
  const seen = new Set<string>();
  for (const [index, item] of list.entries()) {
    const watch = readWatch(item, `watches[${index}]`);
    if (!watch.ok) return watch;
    const key = `${watch.value.network}:${watch.value.principal}`;
    if (seen.has(key)) return err(`watches[${index}] repeats ${watch.value.principal}; list each address once`);
    seen.add(key);
    watches.push(watch.value);
  }
  return ok({ subscription: subscription.value, watches });
}

function readSubscription(value: unknown, allowedOrigins: readonly string[]): Result<PushSubscription, string> {
  if (!isRecord(value)) return err('"subscription" must be the object PushSubscription.toJSON() gives');
  const endpoint = value['endpoint'];
  if (typeof endpoint !== 'string' || endpoint.length > 1024)
    return err('"subscription.endpoint" must be a URL string of at most 1024 characters');
  const refused = refuseEndpoint(endpoint, allowedOrigins);
  if (refused) return err(refused);
  const expiration = value['expirationTime'] ?? null;
  if (expiration !== null && (typeof expiration !== 'number' || !Number.isFinite(expiration)))
    return err('"subscription.expirationTime" must be a number (epoch ms) or null');
  const keys = value['keys'];
  if (!isRecord(keys)) return err('"subscription.keys" must be an object with "p256dh" and "auth"');
  const { p256dh, auth } = keys;
  if (typeof p256dh !== 'string' || !BASE64URL.test(p256dh) || p256dh.length < 80 || p256dh.length > 100)
    return err('"subscription.keys.p256dh" must be the base64url P-256 public key (87 characters)');
  const offCurve = refuseP256dh(p256dh);
  if (offCurve) return err(offCurve);
  if (typeof auth !== 'string' || !BASE64URL.test(auth) || auth.length < 16 || auth.length > 32)
    return err('"subscription.keys.auth" must be the base64url 16-byte auth secret (22 characters)');
  return ok({ endpoint, expirationTime: expiration, keys: { p256dh, auth } });
}

function readWatch(value: unknown, where: string): Result<Watch, string> {
  if (!isRecord(value)) return err(`${where} must be an object { network, principal, rules? }`);
  const network = value['network'];
  if (!isNetwork(network)) return err(`${where}.network must be "mainnet" or "testnet"`);
  const principal = value['principal'];
  if (typeof principal !== 'string' || principal.length > 200)
    return err(`${where}.principal must be a Stacks address string`);
  const parsed = parsePrincipal(principal, { network });
  if (!parsed.ok) return err(`${where}.principal: ${describeAddressError(parsed.error)}`);
  if (parsed.value.principal !== principal)
    return err(`${where}.principal must be in canonical form (${parsed.value.principal})`);
  const rules = value['rules'] === undefined ? ok(DEFAULT_RULES) : readRulesJson(value['rules'], `${where}.rules`);
  if (!rules.ok) return rules;
  return ok({ network, principal, rules: rules.value });
}

/** AlertRules as JSON: the flags as booleans (missing ones take the defaults), minimums as decimal strings. */
export function readRulesJson(value: unknown, where: string): Result<AlertRules, string> {
  if (!isRecord(value)) return err(`${where} must be an object of alert rules`);
  const rules: Record<string, unknown> = { ...DEFAULT_RULES };
  for (const [key, item] of Object.entries(value)) {
    if (key === 'minimums') continue;
    if (!(FLAGS as readonly string[]).includes(key))
      return err(`${where}.${key} is not an alert rule; expected ${FLAGS.join(', ')} or minimums`);
    if (typeof item !== 'boolean') return err(`${where}.${key} must be true or false`);
    rules[key] = item;
  }
  const minimums: Record<string, bigint> = {};
  const raw = value['minimums'] ?? {};
  if (!isRecord(raw)) return err(`${where}.minimums must be an object of asset → decimal string of base units`);
  for (const [asset, amount] of Object.entries(raw)) {
    if (typeof amount !== 'string' || !/^\d{1,40}$/.test(amount))
      return err(`${where}.minimums["${asset}"] must be a decimal string of base units, such as "1000000"`);
    minimums[asset] = BigInt(amount);
  }
  return ok({ ...(rules as unknown as AlertRules), minimums });
}
