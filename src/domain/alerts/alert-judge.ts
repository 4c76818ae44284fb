import type { TxPhase } from './alert-ledger.ts';
import type { AlertRules, AssetKind } from './alert-rules.ts';
import type { Activity } from '../state/snapshot.ts';
import { poxCall } from '../state/pox-call.ts';
import { STX_ASSET } from '../amount.ts';
import { isOutgoing, txEffect, type AssetEffect, type TxEffect } from '../state/tx-effect.ts';

/** Whether a transaction's new state is worth telling, under an address's rules (alert-rules.ts). */

export type Silence =
  | 'muted'
  | 'pending-off'
  | 'direction'
  | 'asset-kind'
  | 'dust'
  | 'unsolicited'
  | 'nothing-moved'
  | 'not-alerted-before';

export type Verdict = { readonly alert: true } | { readonly alert: false; readonly reason: Silence };

const ALERT: Verdict = { alert: true };
const silent = (reason: Silence): Verdict => ({ alert: false, reason });

/** The chain's own PoX contract only: a lookalike deployed by anyone gets the dust and unsolicited guards. */
const isStackingCall = (activity: Activity): boolean =>
  /stack|delegate/.test(poxCall(activity.contractCall)?.functionName ?? '');

/** Which asset kinds a transaction moves for the principal; empty for a call that moved nothing. */
export function assetKinds(activity: Activity, effect: TxEffect): Set<AssetKind> {
  const kinds = new Set<AssetKind>();
  if (isStackingCall(activity)) kinds.add('stacking');
  for (const asset of effect.effects) kinds.add(asset.type === 'stx' ? 'stx' : asset.type === 'ft' ? 'tokens' : 'nfts');
  return kinds;
}

export interface RuleContext {
  /** The watched principal the transaction is judged for. */
  readonly principal: string;
  /** Assets the address held or asked for before: what the unsolicited guard lets through. */
  readonly knownAssets: ReadonlySet<string>;
}

/**
 * Whether a transaction's new state is worth telling. A reverted or dropped one is told only when it had been told
 * (`alertedBefore`); outgoing movements are never dust (a drained wallet starts small); a failed transaction of
 * the address's own is told whatever it would have moved.
 */
export function judge(
  activity: Activity,
  phase: TxPhase | 'reverted',
  rules: AlertRules,
  context: RuleContext & { readonly alertedBefore: boolean },
): Verdict {
  if (rules.muted) return silent('muted');
  if (phase === 'reverted' || phase === 'dropped') return context.alertedBefore ? ALERT : silent('not-alerted-before');
  if (phase === 'pending' && !rules.pending) return silent('pending-off');
  const effect = txEffect(activity, context.principal);
  const outgoing = isOutgoing(effect);
  if (outgoing ? !rules.outgoing : !rules.incoming) return silent('direction');
  const kinds = assetKinds(activity, effect);
  if (kinds.size > 0 && ![...kinds].some((kind) => rules[kind])) return silent('asset-kind');
  // The address's own failed transaction is told; someone else's moved nothing for it, but ends what was told of
  // it while pending ("Receiving 5.00 STX") so that no alert stays pending forever.
  if (phase === 'failed') return effect.signed || context.alertedBefore ? ALERT : silent('nothing-moved');
  // Losing something is never dust, whoever signed (a drained wallet starts small); a stacking call is told as it is.
  if (outgoing || kinds.has('stacking') || kinds.size === 0) return ALERT;
  const received = effect.effects.filter((asset) => asset.net > 0n && kindEnabled(asset, rules));
  // What the address's own transaction brought it, it asked for (a swap, a staking rewards claim).
  const solicited = received.filter(
    (change) =>
      effect.signed ||
      change.assetIdentifier === STX_ASSET ||
      !rules.unsolicitedGuard ||
      context.knownAssets.has(change.assetIdentifier),
  );
  if (received.length > 0 && solicited.length === 0) return silent('unsolicited');
  return solicited.some((change) => change.net >= (rules.minimums[change.assetIdentifier] ?? 1n))
    ? ALERT
    : silent('dust');
}

const kindEnabled = (asset: AssetEffect, rules: AlertRules): boolean =>
  asset.type === 'stx' ? rules.stx : asset.type === 'ft' ? rules.tokens : rules.nfts;
