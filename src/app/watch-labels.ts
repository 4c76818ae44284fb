import { knownName } from '../domain/watch/entry-name.ts';
import type { NameBook } from '../store/name-book.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';

/** An address as a file names it: as the list does (its label, else its BNS name), else the address itself. */
export const labelOf =
  (watchlist: WatchlistController, names: Pick<NameBook, 'get'>) =>
  (principal: string): string => {
    const state = watchlist.getState();
    const entry = state.status === 'ready' ? state.entries.find((item) => item.principal === principal) : undefined;
    return knownName(entry, names.get(principal)) ?? principal;
  };
