import { get, set, setMany, type UseStore } from 'idb-keyval';
import type { WatchlistDamage } from '../domain/text/storage-messages.ts';
import type { WatchList } from '../domain/watch/watchlist.ts';
import { DATABASES, KEYS, openWatchlistDatabase } from './keys.ts';
import { needsFullParser, toRecord, upgradeWatchlistRecord } from './watchlist-schema.ts';

/** Where the record is, for a person recovering it from a downloaded copy. */
const PLACE = `${DATABASES.watchlist}/${KEYS.watchlist}`;

export type LoadOutcome =
  | { readonly kind: 'loaded'; readonly entries: WatchList }
  /** Not all of it reads: what does is shown, the record stays as it is until the user chooses (`replaceDamaged`). */
  | {
      readonly kind: 'damaged';
      readonly entries: WatchList;
      readonly damage: WatchlistDamage;
      readonly raw: unknown;
      readonly place: string;
    }
  /** Written by a newer version of the app: shown, never overwritten. */
  | { readonly kind: 'newer'; readonly version: number; readonly raw: unknown; readonly place: string };

export interface WatchlistPersistence {
  load(): Promise<LoadOutcome>;
  save(entries: WatchList): Promise<void>;
  /** Saves `entries` over a damaged record, in the same write keeping the damaged one (`raw`) under a key of its own. */
  replaceDamaged(raw: unknown, entries: WatchList): Promise<void>;
}

/** The watch list in IndexedDB, as one versioned record so that reordering is a single atomic write. */
export class IdbWatchlistStore implements WatchlistPersistence {
  constructor(
    private readonly db: UseStore = openWatchlistDatabase(),
    private readonly now: () => number = Date.now,
  ) {}

  async load(): Promise<LoadOutcome> {
    const raw: unknown = await get(KEYS.watchlist, this.db);
    if (raw === undefined) return { kind: 'loaded', entries: [] };
    // Only an old record loads the checksum code before the list shows.
    const typed = needsFullParser(raw)
      ? (await import('../domain/address/typed-principal.ts')).readTypedPrincipal
      : undefined;
    const upgraded = upgradeWatchlistRecord(raw, this.now(), typed);
    if (!upgraded.ok) {
      if (upgraded.error.kind === 'newer') return { kind: 'newer', version: upgraded.error.version, raw, place: PLACE };
      return {
        kind: 'damaged',
        entries: [],
        damage: { reason: upgraded.error.reason, dropped: [] },
        raw,
        place: PLACE,
      };
    }
    const { entries, migratedFrom, dropped } = upgraded.value;
    if (dropped.length > 0) return { kind: 'damaged', entries, damage: { reason: null, dropped }, raw, place: PLACE };
    if (migratedFrom !== null)
      await setMany(
        [
          [KEYS.watchlistBackup(`v${migratedFrom}`), raw],
          [KEYS.watchlist, toRecord(entries)],
        ],
        this.db,
      );
    return { kind: 'loaded', entries };
  }

  async save(entries: WatchList): Promise<void> {
    await set(KEYS.watchlist, toRecord(entries), this.db);
  }

  async replaceDamaged(raw: unknown, entries: WatchList): Promise<void> {
    await setMany(
      [
        [KEYS.setAside(KEYS.watchlist, this.now()), raw],
        [KEYS.watchlist, toRecord(entries)],
      ],
      this.db,
    );
  }
}
