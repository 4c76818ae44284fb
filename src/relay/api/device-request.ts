import { DEFAULT_RULES, type AlertRules } from '../../domain/alerts/alert-rules.ts';
import type { DeviceRegistration, WireRules } from '../../domain/relay/device-schema.ts';
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
 * The relay's own policy on a `PUT /v1/devices/{id}` body that the wire contract (domain/relay/device-schema.ts, the
 * route's body schema) already read: a push endpoint it may send to, a key it can encrypt to. Every refusal names
 * its field.
 */
export function applyRelayPolicy(
  { subscription, watches }: DeviceRegistration,
  allowedOrigins: readonly string[],
): Result<DeviceRequest, WireIssue> {
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
