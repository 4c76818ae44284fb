import { serialiseDamagedRecords, type DamagedRecordCopy } from '../../domain/watch/damaged-file.ts';
import type { RulesByKey } from '../../domain/watch/list-transfer.ts';
import type { WatchList } from '../../domain/watch/watchlist.ts';
import { serialiseWatchlist } from '../../domain/watch/watchlist-file.ts';
import { saveFile } from '../../ui/save-file.ts';

const day = (now: number): string => new Date(now).toISOString().slice(0, 10);

/**
 * Saves the list, with the alert rules set here, as a file the user keeps (and can import back): the way out when
 * the device will not store it.
 */
export function downloadWatchlist(entries: WatchList, rules: RulesByKey = {}, now = Date.now()): void {
  saveFile(serialiseWatchlist(entries, rules, now), `stacks-watch-${day(now)}.json`);
}

/** Saves stored records the app could not read, as they were, for the user to keep or to have them recovered. */
export function downloadDamaged(records: readonly DamagedRecordCopy[], now = Date.now()): void {
  saveFile(serialiseDamagedRecords(records, now), `stacks-watch-damaged-${day(now)}.json`);
}
