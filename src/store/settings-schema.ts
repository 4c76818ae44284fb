import { DEFAULT_RULES, readRules, type AlertRules } from '../domain/alerts/alert-rules.ts';
import { middleEllipsis } from '../domain/address/middle-ellipsis.ts';
import { isNetwork } from '../domain/network.ts';
import {
  checkApiKey,
  checkNodeBudget,
  checkNodeUrl,
  type NodeChoice,
  type NodeChoices,
} from '../domain/node-settings.ts';
import type { AlertSettings } from './alert-settings-store.ts';
import { isRecord } from '../domain/is-record.ts';

/**
 * The settings records, read field by field. Pure: a field that does not read falls back to its default, and what
 * was wrong is said (`damage`), so that the store keeps the record as it was before it writes over it.
 */
export interface Decoded<T> {
  readonly value: T;
  /** Why the record did not read whole, in the user's words; null when it did. */
  readonly damage: string | null;
}

export const SETTINGS_VERSION = 1;

export type Fields = Record<string, unknown>;

/** The record's fields when it is an object of this version; otherwise why not. */
export function versioned(raw: unknown): { fields: Fields; damage: null } | { fields: null; damage: string } {
  if (!isRecord(raw)) return { fields: null, damage: 'not a record' };
  const version = raw['version'];
  if (version === SETTINGS_VERSION) return { fields: raw, damage: null };
  if (typeof version === 'number' && version > SETTINGS_VERSION)
    return { fields: null, damage: `written by a newer version of the app (version ${version})` };
  return { fields: null, damage: 'no version this app knows' };
}

export const joined = (problems: readonly string[]): string | null => {
  if (problems.length === 0) return null;
  const parts = problems.length === 1 ? problems[0] : `${problems.slice(0, -1).join(', ')} and ${problems.at(-1)}`;
  return `${parts} could not be read`;
};

export const DEFAULT_ALERT_SETTINGS: AlertSettings = { whileOpen: 'toast', rules: {} };

export function readAlertSettings(raw: unknown): Decoded<AlertSettings> {
  const { fields, damage } = versioned(raw);
  if (!fields) return { value: DEFAULT_ALERT_SETTINGS, damage };
  const problems: string[] = [];
  const whileOpen = fields['whileOpen'];
  if (whileOpen !== 'toast' && whileOpen !== 'system') problems.push('how alerts show while the app is open');
  const rules: Record<string, AlertRules> = {};
  const rawRules = fields['rules'];
  if (!isRecord(rawRules)) problems.push('the rules are not listed by address');
  else
    for (const [key, value] of Object.entries(rawRules)) {
      rules[key] = readRules(value);
      if (!rulesReadWhole(value)) problems.push(`the rules of ${middleEllipsis(key.split(':').at(-1) ?? key)}`);
    }
  return { value: { whileOpen: whileOpen === 'system' ? 'system' : 'toast', rules }, damage: joined(problems) };
}

/** Whether every rule stored is of its type (`readRules` quietly takes the default for one that is not). */
function rulesReadWhole(raw: unknown): boolean {
  if (!isRecord(raw)) return false;
  const flagsOk = Object.keys(DEFAULT_RULES).every(
    (key) => key === 'minimums' || raw[key] === undefined || typeof raw[key] === 'boolean',
  );
  const minimums = raw['minimums'];
  const minimumsOk =
    minimums === undefined ||
    (isRecord(minimums) && Object.values(minimums).every((value) => typeof value === 'bigint' && value >= 0n));
  return flagsOk && minimumsOk;
}

export function readNodeSettings(raw: unknown): Decoded<NodeChoices> {
  const { fields, damage } = versioned(raw);
  if (!fields) return { value: {}, damage };
  const nodes = fields['nodes'];
  if (!isRecord(nodes)) return { value: {}, damage: 'the nodes are not listed by network' };
  const problems: string[] = [];
  const value: Partial<Record<string, NodeChoice>> = {};
  for (const [network, choice] of Object.entries(
    nodes as Record<string, { url?: unknown; apiKey?: unknown; perMinute?: unknown }>,
  )) {
    const url = checkNodeUrl(String(choice?.url ?? ''));
    const apiKey = checkApiKey(String(choice?.apiKey ?? ''));
    const perMinute = checkNodeBudget(String(choice?.perMinute ?? ''));
    if (isNetwork(network) && url.ok && apiKey.ok && perMinute.ok)
      value[network] = {
        url: url.value,
        apiKey: apiKey.value,
        ...(perMinute.value === null ? {} : { perMinute: perMinute.value }),
      };
    else problems.push(`the node for ${network}`);
  }
  return { value, damage: joined(problems) };
}
