import type { DamagedRecordCopy } from '../../domain/watch/damaged-file.ts';
import type { WatchList } from '../../domain/watch/watchlist.ts';
import { failedToLoad } from '../../app/pwa/update-state.ts';

/* The code that writes the files is loaded on the click (precached, so offline too): the first screen does without. */

export function downloadWatchlistLater(entries: WatchList): void {
  void import('./download-watchlist.ts').then((module) => module.downloadWatchlist(entries), failedToLoad);
}

export function downloadDamagedLater(records: readonly DamagedRecordCopy[]): void {
  void import('./download-watchlist.ts').then((module) => module.downloadDamaged(records), failedToLoad);
}
