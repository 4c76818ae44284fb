import { parsePrincipal } from '../address/address.ts';
import { describeAddressError } from '../address/address-messages.ts';
import { DEFAULT_RULES } from '../alerts/alert-rules.ts';
import { RULE_FLAGS } from '../alerts/rules-record.ts';
import { NETWORKS, type Network } from '../network.ts';
import { ok, type Result } from '../result.ts';
import {
  describeIssue,
  dictionary,
  fieldOf,
  flag,
  issue,
  list,
  numberOrNull,
  object,
  oneOf,
  refine,
  text,
  type WireIssue,
  type WireType,
} from './wire-schema.ts';

/**
 * The one wire contract of `PUT /v1/devices/{id}`: the app checks what it builds against it before sending, the
 * relay reads every request with it, and the relay's OpenAPI document is generated from it.
 */

/** The relay keeps at most this many watches per device. */
export const RELAY_MAX_WATCHES = 1000;
export const DEVICE_ID = /^[A-Za-z0-9_-]{22,64}$/;
export const DEVICE_SECRET = /^[A-Za-z0-9_-]{32,128}$/;
const BASE64URL = /^[A-Za-z0-9_-]+=*$/;

export const subscriptionSchema = object(
  {
    endpoint: text({
      expected: 'the push service URL PushManager.subscribe() gave (http(s), at most 1,024 characters)',
      maxLength: 1024,
      pattern: /^https?:\/\/\S+$/,
    }),
    keys: object(
      {
        p256dh: text({
          expected: "the subscription's base64url P-256 public key (87 characters)",
          minLength: 80,
          maxLength: 100,
          pattern: BASE64URL,
        }),
        auth: text({
          expected: "the subscription's base64url 16-byte auth secret (22 characters)",
          minLength: 16,
          maxLength: 32,
          pattern: BASE64URL,
        }),
      },
      {},
      { expected: 'an object with "p256dh" and "auth"' },
    ),
  },
  { expirationTime: numberOrNull('when the subscription expires, in epoch milliseconds') },
  { expected: 'the object PushSubscription.toJSON() gives: { endpoint, expirationTime, keys: { p256dh, auth } }' },
);

const MINIMUM = text({
  expected: 'a decimal string of base units, such as "1000000"',
  maxLength: 40,
  pattern: /^\d{1,40}$/,
});
const ruleFlags = Object.fromEntries(
  RULE_FLAGS.map((name) => [name, flag(`the "${name}" alert rule (left out: ${String(DEFAULT_RULES[name])})`)]),
) as Record<(typeof RULE_FLAGS)[number], ReturnType<typeof flag>>;

const rulesSchema = refine(
  object(
    {},
    { ...ruleFlags, minimums: dictionary(MINIMUM, 200, 'an object of asset → decimal string of base units') },
    { expected: `an object of alert rules (${RULE_FLAGS.join(', ')}, minimums)`, closed: true },
  ),
  (rules) => ok({ ...DEFAULT_RULES, ...rules, minimums: rules.minimums ?? {} }),
);

function principalOf(network: Network, principal: string, field: string): Result<string, WireIssue> {
  const parsed = parsePrincipal(principal, { network });
  if (!parsed.ok)
    return issue(
      field,
      parsed.error.kind === 'network'
        ? `not a ${network} address (${network === 'mainnet' ? 'SP or SM' : 'ST or SN'}): it is a ${parsed.error.actual} one`
        : describeAddressError(parsed.error),
    );
  if (parsed.value.principal !== principal)
    return issue(field, `not in canonical form; send ${parsed.value.principal}`);
  return ok(principal);
}

const watchSchema = refine(
  object(
    {
      network: oneOf(NETWORKS),
      principal: text({ expected: 'a Stacks address or contract principal', minLength: 1, maxLength: 200 }),
    },
    { rules: rulesSchema },
    { expected: 'an object { network, principal, rules? }' },
  ),
  (watch, field) => {
    const principal = principalOf(watch.network, watch.principal, fieldOf(field, 'principal'));
    return principal.ok ? ok(watch) : principal;
  },
  "(the principal in canonical c32 form, of the watch's network)",
);

const watchesSchema = refine(
  list(watchSchema, RELAY_MAX_WATCHES, 'an array of { network, principal, rules? }'),
  (watches, field) => {
    const first = new Map<string, number>();
    for (const [index, { network, principal }] of watches.entries()) {
      const key = `${network}:${principal}`;
      const earlier = first.get(key);
      if (earlier !== undefined)
        return issue(
          fieldOf(field, index),
          `repeats ${principal} (${fieldOf(field, earlier)}); list each address once`,
        );
      first.set(key, index);
    }
    return ok(watches);
  },
  '(each network and principal once)',
);

export const deviceRegistrationSchema = object(
  { subscription: subscriptionSchema, watches: watchesSchema },
  {},
  { expected: 'a JSON object with "subscription" and "watches"' },
);

/** The body of `PUT /v1/devices/{id}` as the app builds it and the relay reads it (rules with their defaults). */
export type DeviceRegistration = WireType<typeof deviceRegistrationSchema>;
export type RelaySubscription = WireType<typeof subscriptionSchema>;
export type RelayWatch = DeviceRegistration['watches'][number];
/** AlertRules on the wire: minimums as decimal strings of base units. */
export type WireRules = NonNullable<RelayWatch['rules']>;

/** Reads a device request; a refusal names its field and what was expected (`watches/3/principal: not a testnet …`). */
export const readDeviceRegistration = (body: unknown): Result<DeviceRegistration, WireIssue> =>
  deviceRegistrationSchema.read(body, '');

export { describeIssue };
