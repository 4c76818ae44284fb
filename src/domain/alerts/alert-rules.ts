import { STX_ASSET, STX_DECIMALS } from '../amount.ts';
import { err, ok, type Result } from '../result.ts';
import { isRecord } from '../is-record.ts';

/**
 * What a user wants to be told about one address. Pure data: stored per address, read here, evaluated by
 * alert-judge.ts (kept apart: what the first paint reads of the rules does not bring the judgement along).
 */
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
