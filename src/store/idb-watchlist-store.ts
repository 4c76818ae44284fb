import { get, set, setMany, type UseStore } from 'idb-keyval';
import type { WatchList } from '../domain/watchlist.ts';
import { KEYS, openWatchlistDatabase } from './keys.ts';
import { needsFullParser, toRecord, upgradeWatchlistRecord } from './watchlist-schema.ts';

export type LoadOutcome =
  | { readonly kind: 'loaded'; readonly entries: WatchList; readonly notice: string | null }
  /** Written by a newer version of the app: shown, never overwritten. */
  | { readonly kind: 'newer'; readonly version: number };

export interface WatchlistPersistence {
  load(): Promise<LoadOutcome>;
  save(entries: WatchList): Promise<void>;
}

/** The watch list in IndexedDB, as one versioned record so that reordering is a single atomic write. */
export class IdbWatchlistStore implements WatchlistPersistence {
  constructor(
    private readonly db: UseStore = openWatchlistDatabase(),
    private readonly now: () => number = Date.now,
  ) {}

  async load(): Promise<LoadOutcome> {
    const raw: unknown = await get(KEYS.watchlist, this.db);
    if (raw === undefined) return { kind: 'loaded', entries: [], notice: null };
    // Only an old record loads the checksum code before the list shows.
    const typed = needsFullParser(raw) ? (await import('../domain/typed-principal.ts')).readTypedPrincipal : undefined;
    const upgraded = upgradeWatchlistRecord(raw, this.now(), typed);
    if (!upgraded.ok) {
      if (upgraded.error.kind === 'newer') return { kind: 'newer', version: upgraded.error.version };
      await set(KEYS.watchlistBackup('unreadable'), raw, this.db);
      await set(KEYS.watchlist, toRecord([]), this.db);
      return {
        kind: 'loaded',
        entries: [],
        notice: `The stored watch list could not be read (${upgraded.error.reason}); it was set aside and a new list started.`,
      };
    }
    const { entries, migratedFrom, dropped } = upgraded.value;
    if (migratedFrom === null && dropped.length === 0) return { kind: 'loaded', entries, notice: null };

    const reason = migratedFrom === null ? 'dropped' : `v${migratedFrom}`;
    await setMany(
      [
        [KEYS.watchlistBackup(reason), raw],
        [KEYS.watchlist, toRecord(entries)],
      ],
      this.db,
    );
    const notice =
      dropped.length > 0
        ? `${dropped.length} stored ${dropped.length === 1 ? 'entry' : 'entries'} could not be read and ${dropped.length === 1 ? 'was' : 'were'} set aside: ${dropped[0]}`
        : null;
    return { kind: 'loaded', entries, notice };
  }

  async save(entries: WatchList): Promise<void> {
    await set(KEYS.watchlist, toRecord(entries), this.db);
  }
}
