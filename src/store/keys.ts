import { createStore, type UseStore } from 'idb-keyval';

/** Every IndexedDB name the app uses, in one place: one database per concern, all under the app's prefix. */
export const DATABASES = {
  watchlist: 'stacks-watch:watchlist',
  snapshots: 'stacks-watch:snapshots',
  tokens: 'stacks-watch:tokens',
  settings: 'stacks-watch:settings',
  alertLedger: 'stacks-watch:alert-ledger',
  inbox: 'stacks-watch:inbox',
  names: 'stacks-watch:names',
  /** Which hosts the app contacted and which watched addresses each was told (the "Who knows what" screen). */
  privacy: 'stacks-watch:privacy',
} as const;

export const KEYS = {
  watchlist: 'watchlist',
  /** An unreadable or pre-migration record, kept so that nothing a user stored is ever thrown away. */
  watchlistBackup: (reason: string) => `watchlist:backup:${reason}`,
} as const;

export const BROADCAST_CHANNELS = {
  watchlist: 'stacks-watch:watchlist',
  /** The tab running the engine tells the others which snapshots it stored, and its connection status. */
  snapshots: 'stacks-watch:snapshots',
  status: 'stacks-watch:status',
  /** The other tabs ask the engine's tab for things (an address page's tokens). */
  commands: 'stacks-watch:commands',
  inbox: 'stacks-watch:inbox',
  alertSettings: 'stacks-watch:alert-settings',
  tokens: 'stacks-watch:tokens',
  names: 'stacks-watch:names',
  privacy: 'stacks-watch:privacy',
} as const;

export const openWatchlistDatabase = (): UseStore => createStore(DATABASES.watchlist, 'records');
export const openSnapshotDatabase = (): UseStore => createStore(DATABASES.snapshots, 'by-principal');
export const openTokenDatabase = (): UseStore => createStore(DATABASES.tokens, 'metadata');
export const openAlertLedgerDatabase = (): UseStore => createStore(DATABASES.alertLedger, 'by-address');
export const openInboxDatabase = (): UseStore => createStore(DATABASES.inbox, 'alerts');
export const openSettingsDatabase = (): UseStore => createStore(DATABASES.settings, 'records');
export const openNameDatabase = (): UseStore => createStore(DATABASES.names, 'by-principal');
export const openPrivacyDatabase = (): UseStore => createStore(DATABASES.privacy, 'by-host');
