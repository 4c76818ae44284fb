import type { WatchlistController } from '../store/watchlist-state.ts';

/** An address as a file names it: its label, else its BNS name, else the address itself. */
export const labelOf =
  (watchlist: WatchlistController) =>
  (principal: string): string => {
    const state = watchlist.getState();
    const entry = state.status === 'ready' ? state.entries.find((item) => item.principal === principal) : undefined;
    return entry?.label || entry?.name || principal;
  };
