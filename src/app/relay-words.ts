import { partiesOf, tokensOf } from '../domain/alerts/alert-facts.ts';
import { readAlertFacts } from '../domain/alerts/alert-facts-read.ts';
import { deviceWords } from '../domain/alerts/device-words.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import type { RelayAlert } from '../domain/relay/relay-message.ts';
import { trustedAddresses } from '../domain/address/lookalike.ts';
import type { AddressSnapshot, TokenMetadata } from '../domain/state/snapshot.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';

export type RelayWords = (alert: RelayAlert, before: InboxEntry | undefined) => RelayAlert;

/**
 * A relay alert in this device's words, as the service worker words a push (domain/alerts/device-words.ts), for the alerts
 * the page reads from the relay's feed: one whose push never arrived reads like every other alert in the inbox.
 */
export function relayWordsOnDevice(deps: {
  readonly watchlist: WatchlistController;
  readonly names: { get(principal: string): string | null | undefined };
  readonly tokens: { get(assetOrContract: string): TokenMetadata | undefined };
  /** What each watched address sent: a lookalike of a past recipient is told as the open app tells it. */
  readonly snapshots: { get(principal: string): AddressSnapshot | undefined };
}): RelayWords {
  return (alert, before) => {
    try {
      return worded(alert, before);
    } catch (error) {
      // Called inside an inbox write: a failure here must cost the labels, never the alert.
      console.warn('Keeping a relay alert in the relay’s words', error);
      return alert;
    }
  };

  function worded(alert: RelayAlert, before: InboxEntry | undefined): RelayAlert {
    if (!alert.facts) return alert;
    const facts = readAlertFacts(alert.facts);
    if (!facts.ok) return alert;
    const state = deps.watchlist.getState();
    const entries = state.status === 'ready' ? state.entries : [];
    const names = new Map<string, string>();
    for (const principal of partiesOf(alert.facts)) {
      const name = deps.names.get(principal);
      if (name) names.set(principal, name);
    }
    const tokens = new Map<string, TokenMetadata>();
    for (const contract of tokensOf(alert.facts)) {
      const metadata = deps.tokens.get(contract);
      if (metadata) tokens.set(contract, metadata);
    }
    const watched = new Map(entries.map((entry) => [entry.principal, { label: entry.label, name: entry.name }]));
    const principals = [...watched.keys()];
    const trusted = trustedAddresses(
      principals,
      principals.map((principal) => deps.snapshots.get(principal)),
    );
    const told = before && before.phase !== alert.phase ? before : undefined;
    return { ...alert, ...deviceWords(alert, facts.value, { watched, names, tokens, trusted }, told) };
  }
}
