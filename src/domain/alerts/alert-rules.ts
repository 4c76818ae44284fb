import type { TxPhase } from './alert-ledger.ts';
import { STX_DECIMALS } from '../amount.ts';
import { err, ok, type Result } from '../result.ts';
import type { Activity } from '../state/snapshot.ts';
import { poxCall } from '../state/pox-call.ts';
import { isOutgoing, STX_ASSET, txEffect, type AssetEffect, type TxEffect } from '../state/tx-effect.ts';
import { isRecord } from '../is-record.ts';

/** What a user wants to be told about one address. Pure data: stored per address, evaluated here. */
export interface AlertRules {
  readonly muted: boolean;
  readonly incoming: boolean;
  readonly outgoing: boolean;
  readonly stx: boolean;
  readonly tokens: boolean;
  readonly nfts: boolean;
  /** Stacking calls, and STX locking or unlocking. */
  readonly stacking: boolean;
  /** Tell about transactions in the mempool as well as confirmed and failed ones. */
  readonly pending: boolean;
  /** Stay silent about tokens or NFTs the address never held and did not ask for (airdropped spam). */
  readonly unsolicitedGuard: boolean;
  /** Dust guard for what arrives: base units per asset, `STX` for STX, else the asset identifier. */
  readonly minimums: Readonly<Record<string, bigint>>;
}

export { STX_ASSET };

export const DEFAULT_RULES: AlertRules = {
  muted: false,
  incoming: true,
  outgoing: true,
  stx: true,
  tokens: true,
  nfts: true,
  stacking: true,
  pending: true,
  unsolicitedGuard: true,
  minimums: {},
};

export type AssetKind = 'stx' | 'tokens' | 'nfts' | 'stacking';
export type Direction = 'incoming' | 'outgoing';

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

/** A typed minimum, "0.5" STX or "1,000" tokens, in base units; the message says what was expected. */
export function parseMinimum(text: string, decimals: number = STX_DECIMALS): Result<bigint, string> {
  const cleaned = text.trim().replace(/[,_\s]/g, '');
  if (cleaned === '') return ok(0n);
  const match = /^(\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) return err(`“${text.trim()}” is not an amount: use digits and at most one decimal point, like 0.5`);
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > decimals)
    return err(`at most ${decimals} decimal place${decimals === 1 ? '' : 's'} for this asset`);
  const value = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (value > 2n ** 64n) return err('that amount is larger than any balance can be');
  return ok(value);
}

/** Reads stored rules, tolerating missing or damaged fields: each falls back to its default. */
export function readRules(raw: unknown): AlertRules {
  if (!isRecord(raw)) return DEFAULT_RULES;
  const flag = (key: Exclude<keyof AlertRules, 'minimums'>): boolean =>
    typeof raw[key] === 'boolean' ? (raw[key] as boolean) : DEFAULT_RULES[key];
  const minimums: Record<string, bigint> = {};
  const rawMinimums = raw['minimums'];
  if (isRecord(rawMinimums)) {
    for (const [asset, value] of Object.entries(rawMinimums))
      if (typeof value === 'bigint' && value >= 0n) minimums[asset] = value;
  }
  return {
    muted: flag('muted'),
    incoming: flag('incoming'),
    outgoing: flag('outgoing'),
    stx: flag('stx'),
    tokens: flag('tokens'),
    nfts: flag('nfts'),
    stacking: flag('stacking'),
    pending: flag('pending'),
    unsolicitedGuard: flag('unsolicitedGuard'),
    minimums,
  };
}
