import { useMemo } from 'react';
import { shortPrincipal } from '../domain/activity-text.ts';
import type { Naming } from '../domain/effect-text.ts';
import { useTokenCatalog } from './token-context.tsx';
import { useWatchlistState } from './watchlist-context.tsx';

/** Names for addresses and tokens as the user knows them: a watched address's label or BNS name, a token's symbol. */
export function useNaming(): Naming {
  const state = useWatchlistState();
  const catalog = useTokenCatalog();
  return useMemo(() => {
    const entries = state.status === 'ready' ? state.entries : [];
    const names = new Map(entries.map((entry) => [entry.principal, entry.label || entry.name || '']));
    return {
      token: (asset: string) => catalog.get(asset),
      party: (principal: string) => names.get(principal) || shortPrincipal(principal),
    };
  }, [state, catalog]);
}
