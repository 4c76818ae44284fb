import type { UseStore } from 'idb-keyval';
import { openDatabase } from './idb-database.ts';
import { storageHealth } from './storage-health.ts';

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
  /** Full transaction histories read page by page, and the export in progress. */
  history: 'stacks-watch:history',
} as const;

/**
 * The version every database is opened at: 1, the version they were created at. Raising one (with the upgrade it
 * needs in store/idb-database.ts) makes a tab of an older build, still open, hold the new one up until it is closed:
 * the new tab says so. Tabs of this build let go at once.
 */
export const DATABASE_VERSION = 1;

export const KEYS = {
  watchlist: 'watchlist',
  /** An unreadable or pre-migration record, kept so that nothing a user stored is ever thrown away. */
  watchlistBackup: (reason: string) => `watchlist:backup:${reason}`,
  /** A damaged record replaced with the user's consent, under a key of its own that nothing writes again. */
  setAside: (key: string, at: number) => `${key}:set-aside:${new Date(at).toISOString()}`,
} as const;

/** localStorage, for what is small, synchronous and harmless to lose. */
export const LOCAL_KEYS = {
  /** When this device started its requests to a node in the last minute (times only, never a key). */
  pacedStarts: (nodeUrl: string) => `stacks-watch:paced:${nodeUrl}`,
  /** Removals and Undos whose list may not be saved yet, and the Undo on offer (store/removal-journal-store.ts). */
  removalJournal: 'stacks-watch:removal-journal',
  /** The codes of a list from another device read so far, one key per transfer (store/kept-parts-store.ts). */
  keptParts: (set: string) => `stacks-watch:receive:${set}`,
  keptPartsPrefix: 'stacks-watch:receive:',
  /** When the user last left the inbox (epoch ms): its "since you last looked" divider (app/use-last-looked.ts). */
  inboxLookedAt: 'stacks-watch:inbox-looked-at',
  /** When the person was last seen in the app (epoch ms, written as it is hidden or left): app/presence.ts. */
  lastSeen: 'stacks-watch:last-seen',
  /** When a network's node stopped answering, and when that was last seen (app/trouble-began.ts). */
  troubleBegan: (network: string) => `stacks-watch:trouble-began:${network}`,
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
  /** Alerts when the app is closed: on or off, this device's identity at the relay, where its feed stands. */
  relaySettings: 'stacks-watch:relay-settings',
  tokens: 'stacks-watch:tokens',
  names: 'stacks-watch:names',
  privacy: 'stacks-watch:privacy',
} as const;

/** One connection per database for the page, shared by the stores that keep records in it. */
const opened = new Map<string, UseStore>();
const database = (name: string, store: string) => (): UseStore => {
  let use = opened.get(name);
  if (!use) opened.set(name, (use = openDatabase(name, store, DATABASE_VERSION, storageHealth)));
  return use;
};

export const openWatchlistDatabase = database(DATABASES.watchlist, 'records');
export const openSnapshotDatabase = database(DATABASES.snapshots, 'by-principal');
export const openTokenDatabase = database(DATABASES.tokens, 'metadata');
export const openAlertLedgerDatabase = database(DATABASES.alertLedger, 'by-address');
export const openInboxDatabase = database(DATABASES.inbox, 'alerts');
export const openSettingsDatabase = database(DATABASES.settings, 'records');
export const openNameDatabase = database(DATABASES.names, 'by-principal');
export const openPrivacyDatabase = database(DATABASES.privacy, 'by-host');
export const openHistoryDatabase = database(DATABASES.history, 'chunks');
