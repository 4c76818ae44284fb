import { createStore } from '../domain/create-store.ts';
import type { DamagedRecordCopy } from '../domain/watch/damaged-file.ts';
import type { DamagedRecord } from '../domain/text/storage-messages.ts';

/** What happened to a database under the app, as its connection saw it. */
export type ConnectionEvent =
  /** Opening it waits for another tab that keeps an older version open. */
  | { readonly kind: 'blocked'; readonly database: string }
  | { readonly kind: 'opened'; readonly database: string }
  /** Another tab upgraded it to `version`: this tab let go and cannot open it again. */
  | { readonly kind: 'replaced'; readonly database: string; readonly version: number }
  /** It was deleted under the app (site data cleared), seen as the browser closing it or it being new again. */
  | { readonly kind: 'cleared'; readonly database: string };

/** A record a store could not read: what the user is told, and a copy of it to download. */
export type StoredDamage = DamagedRecord & DamagedRecordCopy;

export interface StorageHealth {
  /** Databases whose opening waits for another tab. */
  readonly blocked: readonly string[];
  /** The version another tab upgraded a database to, once that happened. */
  readonly replacedBy: number | null;
  /** Site data was cleared while the app was open (until the user dismisses the message). */
  readonly cleared: boolean;
  readonly damaged: readonly StoredDamage[];
}

const HEALTHY: StorageHealth = { blocked: [], replacedBy: null, cleared: false, damaged: [] };

/**
 * How the device's storage is doing, for the screens and for the stores that save again what a clearing deleted.
 * Connections report to it (store/idb-database.ts); stores report records they could not read.
 */
export class StorageHealthBoard {
  private readonly state = createStore<StorageHealth>(HEALTHY);
  private readonly clearedListeners = new Map<string, Set<() => void>>();

  readonly get = this.state.get;
  readonly subscribe = this.state.subscribe;

  /** `listener` runs each time `database` is found deleted under the app: the store saves again what it holds. */
  onCleared(database: string, listener: () => void): () => void {
    let set = this.clearedListeners.get(database);
    if (!set) this.clearedListeners.set(database, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  report(event: ConnectionEvent): void {
    const blocked = this.get().blocked.filter((name) => name !== event.database);
    switch (event.kind) {
      case 'blocked':
        return this.set({ blocked: [...blocked, event.database] });
      case 'opened':
        return this.set({ blocked });
      case 'replaced':
        return this.set({ blocked, replacedBy: Math.max(event.version, this.get().replacedBy ?? 0) });
      case 'cleared':
        this.set({ blocked, cleared: true });
        this.clearedListeners.get(event.database)?.forEach((listener) => listener());
    }
  }

  reportDamage(damage: StoredDamage): void {
    const others = this.get().damaged.filter((known) => known.place !== damage.place);
    this.set({ damaged: [...others, damage] });
  }

  /** The record at `place` reads again (replaced, or another tab wrote it). */
  repaired(place: string): void {
    if (this.get().damaged.some((known) => known.place === place))
      this.set({ damaged: this.get().damaged.filter((known) => known.place !== place) });
  }

  dismiss(what: 'cleared' | 'damaged'): void {
    this.set(what === 'cleared' ? { cleared: false } : { damaged: [] });
  }

  private set(change: Partial<StorageHealth>): void {
    this.state.update((state) => ({ ...state, ...change }));
  }
}

/** The page's one board: every database the app opens reports here. */
export const storageHealth = new StorageHealthBoard();
