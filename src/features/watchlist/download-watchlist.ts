import type { WatchList } from '../../domain/watchlist.ts';
import { serialiseWatchlist } from '../../domain/watchlist-file.ts';

/** Saves the list as a file the user keeps (and can import back): the way out when the device will not store it. */
export function downloadWatchlist(entries: WatchList, now = Date.now()): void {
  const blob = new Blob([serialiseWatchlist(entries, now)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `stacks-watch-${new Date(now).toISOString().slice(0, 10)}.json`;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
