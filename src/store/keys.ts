import { createStore, type UseStore } from 'idb-keyval';

/** Every IndexedDB name the app uses, in one place: one database per concern, all under the app's prefix. */
export const DATABASES = {
  watchlist: 'stacks-watch:watchlist',
  snapshots: 'stacks-watch:snapshots',
  tokens: 'stacks-watch:tokens',
  settings: 'stacks-watch:settings',
} as const;

export const KEYS = {
  watchlist: 'watchlist',
  /** An unreadable or pre-migration record, kept so that nothing a user stored is ever thrown away. */
  watchlistBackup: (reason: string) => `watchlist:backup:${reason}`,
} as const;

export const BROADCAST_CHANNELS = {
  watchlist: 'stacks-watch:watchlist',
} as const;

export const openWatchlistDatabase = (): UseStore => createStore(DATABASES.watchlist, 'records');
export const openSnapshotDatabase = (): UseStore => createStore(DATABASES.snapshots, 'by-principal');
export const openTokenDatabase = (): UseStore => createStore(DATABASES.tokens, 'metadata');
export const openSettingsDatabase = (): UseStore => createStore(DATABASES.settings, 'records');
