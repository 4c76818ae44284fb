import { DEFAULT_RULES, type AlertRules } from './alert-rules.ts';
import { err, ok, type Result } from '../result.ts';
import { isRecord } from '../is-record.ts';

/**
 * Alert rules as they travel to another device: readable in an export file, packed small in a QR code. Whatever
 * arrives is read strictly, field by field, and a wrong field is named with what was expected.
 */
export const RULE_FLAGS = [
  'muted',
  'incoming',
  'outgoing',
  'stx',
  'tokens',
  'nfts',
  'stacking',
  'pending',
  'unsolicitedGuard',
] as const;
type RuleFlag = (typeof RULE_FLAGS)[number];

const MAX_MINIMUM = 2n ** 64n;
const ASSET_ID = /^S[0-9A-HJKMNP-Z]{20,40}\.[a-zA-Z][a-zA-Z0-9_-]{0,127}::[^\s:]{1,128}$/;
const DIGITS = /^(0|[1-9]\d{0,19})$/;

export type RulesRecord = Record<RuleFlag, boolean> & { readonly minimums: Record<string, string> };

export const sameRules = (a: AlertRules, b: AlertRules): boolean =>
  RULE_FLAGS.every((flag) => a[flag] === b[flag]) &&
  Object.keys(a.minimums).length === Object.keys(b.minimums).length &&
  Object.entries(a.minimums).every(([asset, value]) => b.minimums[asset] === value);

export const isDefaultRules = (rules: AlertRules): boolean => sameRules(rules, DEFAULT_RULES);

export function rulesToRecord(rules: AlertRules): RulesRecord {
  const flags = Object.fromEntries(RULE_FLAGS.map((flag) => [flag, rules[flag]])) as Record<RuleFlag, boolean>;
  const minimums = Object.fromEntries(Object.entries(rules.minimums).map(([asset, value]) => [asset, `${value}`]));
  return { ...flags, minimums };
}

/** Reads rules from a file; a flag left out takes its default, anything else unexpected is refused. */
export function readRulesRecord(raw: unknown): Result<AlertRules, string> {
  if (!isRecord(raw)) return err('the “rules” are not an object of rule names and values');
  const rules: Record<string, unknown> = { ...DEFAULT_RULES };
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'minimums') continue;
    if (!(RULE_FLAGS as readonly string[]).includes(key))
      return err(`“${key}” is not an alert rule (expected ${RULE_FLAGS.join(', ')} or minimums)`);
    if (typeof value !== 'boolean') return err(`the rule “${key}” is ${JSON.stringify(value)}; expected true or false`);
    rules[key] = value;
  }
  const minimums = readMinimums(raw['minimums'] ?? {});
  return minimums.ok ? ok({ ...(rules as unknown as AlertRules), minimums: minimums.value }) : minimums;
}

function readMinimums(raw: unknown): Result<Record<string, bigint>, string> {
  if (!isRecord(raw)) return err('the “minimums” are not an object of assets and amounts');
  const minimums: Record<string, bigint> = {};
  for (const [asset, value] of Object.entries(raw)) {
    const amount = readMinimum(asset, value);
    if (!amount.ok) return amount;
    minimums[asset] = amount.value;
  }
  return ok(minimums);
}

function readMinimum(asset: string, value: unknown): Result<bigint, string> {
  if (asset !== 'STX' && !ASSET_ID.test(asset))
    return err(`the minimum for “${asset}” names no asset: expected STX or a token like SP….contract::token`);
  if (typeof value !== 'string' || !DIGITS.test(value))
    return err(
      `the minimum for ${asset} is ${JSON.stringify(value)}; expected whole base units as digits, like "1000000"`,
    );
  const amount = BigInt(value);
  return amount > MAX_MINIMUM ? err(`the minimum for ${asset} is larger than any balance can be`) : ok(amount);
}

/** The packed form: one number for the switches, then asset and amount pairs. */
export type PackedRules = readonly [number, ...string[]];

export function packRules(rules: AlertRules): PackedRules {
  const bits = RULE_FLAGS.reduce((mask, flag, bit) => (rules[flag] ? mask | (1 << bit) : mask), 0);
  return [bits, ...Object.entries(rules.minimums).flatMap(([asset, value]) => [asset, `${value}`])];
}

export function unpackRules(raw: unknown): Result<AlertRules, string> {
  if (!Array.isArray(raw) || raw.length % 2 !== 1) return err('its alert rules are not in the expected form');
  const [bits, ...pairs] = raw as unknown[];
  if (typeof bits !== 'number' || !Number.isInteger(bits) || bits < 0 || bits >= 1 << RULE_FLAGS.length)
    return err('its alert rule switches are not in the expected form');
  const flags = Object.fromEntries(RULE_FLAGS.map((flag, bit) => [flag, (bits & (1 << bit)) !== 0]));
  const minimums: Record<string, bigint> = {};
  for (let at = 0; at < pairs.length; at += 2) {
    const asset = pairs[at];
    if (typeof asset !== 'string') return err('a minimum of its alert rules names no asset');
    const amount = readMinimum(asset, pairs[at + 1]);
    if (!amount.ok) return amount;
    minimums[asset] = amount.value;
  }
  return ok({ ...(flags as Record<RuleFlag, boolean>), minimums });
}
