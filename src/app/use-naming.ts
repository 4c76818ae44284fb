import { useMemo } from 'react';
import { middleEllipsis } from '../domain/address/middle-ellipsis.ts';
import { knownName } from '../domain/watch/entry-name.ts';
import type { Naming } from '../domain/text/effect-text.ts';
import { useNameBook } from './name-context.tsx';
import { useTokenCatalog } from './token-context.tsx';
import { useWatchlistState } from './watchlist-context.tsx';

/** Names for addresses and tokens as the user knows them: a watched address's label or BNS name, a token's symbol. */
export function useNaming(): Naming {
  const state = useWatchlistState();
  const catalog = useTokenCatalog();
  const book = useNameBook();
  const version = book?.changes.get() ?? 0;
  return useMemo(() => {
    const entries = state.status === 'ready' ? state.entries : [];
    const watched = new Map(entries.map((entry) => [entry.principal, entry]));
    return {
      token: (asset: string) => catalog.get(asset),
      party: (principal: string) =>
        knownName(watched.get(principal), book?.get(principal)) ?? middleEllipsis(principal),
    };
    // `version` changes when a name arrives: the names are read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [state, catalog, book, version]);
}
