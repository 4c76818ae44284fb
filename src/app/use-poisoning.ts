import { useMemo } from 'react';
import { poisoningSuspect, trustedAddresses, type PoisoningSuspect } from '../domain/address/lookalike.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { useSnapshotBook } from './snapshot-context.tsx';
import { useWatchlistState } from './watchlist-context.tsx';

/** Flags transactions from lookalikes of the watched addresses and of the addresses they sent to. */
export function usePoisoning(): (activity: Activity, principal: string) => PoisoningSuspect | null {
  const state = useWatchlistState();
  const book = useSnapshotBook();
  const version = book.changes.get();
  return useMemo(() => {
    const watched = state.status === 'ready' ? state.entries.map((entry) => entry.principal) : [];
    const trusted = trustedAddresses(
      watched,
      watched.map((principal) => book.get(principal)),
    );
    return (activity, principal) => poisoningSuspect(activity, principal, trusted);
    // `version` changes when any snapshot does: what the watched addresses sent to is read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, book, version]);
}
