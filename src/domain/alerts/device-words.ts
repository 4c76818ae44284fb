import type { ReadFacts } from './alert-facts-read.ts';
import type { AlertPhase } from './alert-ledger.ts';
import { type TextContext } from '../text/alert-text.ts';
import { pairOf } from '../text/notification-content.ts';
import { alertBody, alertTitle } from '../text/alert-text.ts';
import { poisoningSuspect, trustedAddresses } from '../address/lookalike.ts';
import type { Network } from '../network.ts';
import type { TokenMetadata } from '../state/snapshot.ts';
import type { PairWords } from './transfer-pair.ts';
import { isRecord } from '../is-record.ts';

/** What this device calls addresses and tokens: the watch list's labels and names, the names book, the tokens. */
export interface DeviceNames {
  /** Per watched principal, the user's label and the BNS name it was added by. */
  readonly watched: ReadonlyMap<string, { readonly label: string; readonly name?: string | undefined }>;
  /** BNS names the app looked up (an empty one: looked up, none). */
  readonly names: ReadonlyMap<string, string>;
  /** Token metadata by contract id. */
  readonly tokens: ReadonlyMap<string, TokenMetadata>;
  /**
   * The addresses this device relies on (lookalike.ts's trustedAddresses: the watched ones and those they sent to);
   * without it, the watched ones. A lookalike sender is told as a possible address-poisoning, as the open app tells it.
   */
  readonly trusted?: ReadonlySet<string>;
}

export const NO_DEVICE_NAMES: DeviceNames = { watched: new Map(), names: new Map(), tokens: new Map() };

/**
 * A relayed alert in this device's words, by the same wording code the open app uses (alert-text.ts), with the
 * names this device gave and knows first and the relay's as a fallback: "Walker / From Alice" rather than
 * "ST8H24…PJ4T / From alice.btc". A follow-up the relay words from what it told before is worded from what this
 * device told before (`before`), when it has it.
 */
export function deviceWords(
  alert: {
    readonly id: string;
    readonly network: Network;
    readonly principal: string;
    readonly phase: AlertPhase;
    readonly at: number;
    readonly title: string;
    readonly body: string;
  },
  facts: ReadFacts,
  device: DeviceNames,
  before?: { readonly title: string; readonly body: string },
): { title: string; body: string; pair?: PairWords } {
  const contract = (asset: string) => asset.split('::')[0] ?? asset;
  const context: TextContext = {
    label: (principal) => device.watched.get(principal)?.label ?? '',
    watched: (principal) => device.watched.has(principal),
    nameOf: (principal) => {
      const watched = device.watched.get(principal);
      return watched?.label || watched?.name || device.names.get(principal) || facts.names.get(principal) || null;
    },
    token: (asset) => device.tokens.get(contract(asset)) ?? facts.tokens.get(contract(asset)),
    suspect: (activity, principal) =>
      poisoningSuspect(activity, principal, device.trusted ?? trustedAddresses([...device.watched.keys()], [])),
  };
  const item = {
    id: alert.id,
    network: alert.network,
    principal: alert.principal,
    subject: facts.subject,
    phase: alert.phase,
    activity: facts.activity,
    amount: facts.amount,
    at: alert.at,
    catchUp: false,
    ...(facts.recalled ? { recalled: before ?? { title: alert.title, body: alert.body } } : {}),
    // Worded as the revert it follows, pending only; whether it rings is the service worker's to decide (sw/push.ts).
    ...(alert.phase === 'pending' && facts.afterRevert ? { afterRevert: 'untold' as const } : {}),
  };
  // The words the open app would show, with the pair it would tell a transfer between two watched addresses as.
  const own = { title: alertTitle(item, context), body: alertBody(item, context) };
  const pair = pairOf(item, context, own);
  return { ...own, ...(pair ? { pair } : {}) };
}

/**
 * The labels and names of a stored watch list record (`{ schemaVersion: 2, entries }`, or an older
 * `{ version: 1, addresses }`), read leniently: an entry that does not read is left out, never an error, since the
 * worst outcome is the relay's own words.
 */
export function watchedNames(raw: unknown): Map<string, { label: string; name?: string }> {
  const named = new Map<string, { label: string; name?: string }>();
  if (!isRecord(raw)) return named;
  const entries = raw['entries'] ?? raw['addresses'];
  if (!Array.isArray(entries)) return named;
  for (const entry of entries) {
    if (!isRecord(entry)) continue;
    const { principal, address, label, name } = entry;
    const who = typeof principal === 'string' ? principal : address;
    if (typeof who !== 'string') continue;
    named.set(who, {
      label: typeof label === 'string' ? label.slice(0, 64) : '',
      ...(typeof name === 'string' ? { name: name.slice(0, 100) } : {}),
    });
  }
  return named;
}
