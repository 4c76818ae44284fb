import type { TextContext } from '../../domain/text/alert-text.ts';
import { poisoningSuspect, trustedAddresses } from '../../domain/address/lookalike.ts';
import type { AddressSnapshot, TokenMetadata } from '../../domain/state/snapshot.ts';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';

/**
 * What the open app's alert words know: the watch list's labels and the names and tokens the engine learned. A
 * counterparty on the watch list is watched whether or not it has a label, so that a transfer between two watched
 * addresses is told as one here exactly as the service worker tells a push (device-words.ts).
 */
export function pageTextContext(deps: {
  readonly entries: () => readonly WatchEntry[];
  readonly names?: { get(principal: string): string | null | undefined };
  readonly tokens: { get(asset: string): TokenMetadata | undefined };
  readonly snapshots: { get(principal: string): AddressSnapshot | undefined };
}): TextContext {
  const entryOf = (principal: string): WatchEntry | undefined =>
    deps.entries().find((entry) => entry.principal === principal);
  return {
    label: (principal) => entryOf(principal)?.label ?? '',
    watched: (principal) => entryOf(principal) !== undefined,
    // A watched counterparty is named as the user named it; its BNS name otherwise.
    nameOf: (principal) => {
      const entry = entryOf(principal);
      return entry?.label || entry?.name || deps.names?.get(principal) || null;
    },
    token: (asset) => deps.tokens.get(asset),
    suspect: (activity, principal) => {
      const watched = deps.entries().map((entry) => entry.principal);
      return poisoningSuspect(
        activity,
        principal,
        trustedAddresses(
          watched,
          watched.map((each) => deps.snapshots.get(each)),
        ),
      );
    },
  };
}
