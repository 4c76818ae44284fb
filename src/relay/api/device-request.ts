import { DEFAULT_RULES, type AlertRules } from '../../domain/alerts/alert-rules.ts';
import { readDeviceRegistration, type WireRules } from '../../domain/relay/device-schema.ts';
import { ok, type Result } from '../../domain/result.ts';
import { issue, type WireIssue } from '../../domain/relay/wire-schema.ts';
import type { PushSubscription, Watch } from '../storage/devices.ts';
import { refuseP256dh } from './p256dh.ts';
import { refuseEndpoint } from './push-endpoint.ts';

export interface DeviceRequest {
  readonly subscription: PushSubscription;
  readonly watches: readonly Watch[];
}

/**
 * Reads `PUT /v1/devices/{id}`'s body with the wire contract the app builds it by (domain/relay/device-schema.ts),
 * then the relay's own policy: a push endpoint it may send to, a key it can encrypt to. Every refusal names its field.
 */
export function readDeviceRequest(body: unknown, allowedOrigins: readonly string[]): Result<DeviceRequest, WireIssue> {
  const read = readDeviceRegistration(body);
  if (!read.ok) return read;
  const { subscription, watches } = read.value;
  const refused = refuseEndpoint(subscription.endpoint, allowedOrigins);
  if (refused) return issue('subscription/endpoint', refused);
  const offCurve = refuseP256dh(subscription.keys.p256dh);
  if (offCurve) return issue('subscription/keys/p256dh', offCurve);
  return ok({
    subscription: { ...subscription, expirationTime: subscription.expirationTime ?? null },
    watches: watches.map(({ network, principal, rules }) => ({
      network,
      principal,
      rules: rules ? fromWireRules(rules) : DEFAULT_RULES,
    })),
  });
}

const fromWireRules = (rules: WireRules): AlertRules => ({
  ...rules,
  minimums: Object.fromEntries(Object.entries(rules.minimums).map(([asset, amount]) => [asset, BigInt(amount)])),
});
