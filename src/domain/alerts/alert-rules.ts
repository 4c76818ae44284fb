import { formatUnits, STX_ASSET, STX_DECIMALS } from '../amount.ts';
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

/** An asset a minimum is typed in: its symbol, decimals, and the most of it there can ever be. */
export interface MinimumAsset {
  readonly symbol: string;
  readonly decimals: number;
  /** In whole units: no threshold above it means anything (it would silence every alert). */
  readonly mostEver: bigint;
}

/** STX: 1,818 million at most, the supply the protocol reaches in 2050. */
export const STX_MINIMUM: MinimumAsset = { symbol: 'STX', decimals: STX_DECIMALS, mostEver: 1_818_000_000n };

/**
 * A typed minimum, "0.5" or "1,000.25" (commas group thousands, as the app writes amounts), in base units. A comma
 * that cannot group thousands ("1,5") is a decimal comma the app does not guess at: read as 15 it silently
 * silenced what the user meant to see. The message says what was wrong and what is expected.
 */
export function parseMinimum(text: string, asset: MinimumAsset = STX_MINIMUM): Result<bigint, string> {
  const typed = text.trim();
  const cleaned = typed.replace(/[_\s]/g, '');
  if (cleaned === '') return ok(0n);
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d*))?$/.exec(cleaned);
  if (!match) {
    const decimalComma = /^\d+,\d+$/.test(cleaned);
    return err(
      decimalComma
        ? `“${typed}”: write decimals with a point, like ${cleaned.replace(',', '.')}. A comma only groups thousands (1,000).`
        : `“${typed}” is not an amount: use digits and at most one decimal point, like 0.5.`,
    );
  }
  const [, whole = '0', fraction = ''] = match;
  const { symbol, decimals } = asset;
  if (fraction.length > decimals)
    return err(
      `“${typed}” has ${fraction.length} decimal places; ${symbol} has ${decimals === 0 ? 'none' : `at most ${decimals}`}.`,
    );
  const units = BigInt(whole.replace(/,/g, ''));
  const value = units * 10n ** BigInt(decimals) + BigInt(fraction.padEnd(decimals, '0') || '0');
  if (value > asset.mostEver * 10n ** BigInt(decimals))
    return err(
      `${formatUnits(value, decimals)} ${symbol} is more than there will ever be (${asset.mostEver.toLocaleString('en-US')} ${symbol}): it would silence every alert.`,
    );
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
