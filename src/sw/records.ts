/// <reference lib="webworker" />
import { watchedNames, type DeviceNames } from '../domain/alerts/device-words.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';
import { readInboxRecord } from '../domain/record-shapes.ts';
import { trustedAddresses } from '../domain/address/lookalike.ts';
import { sentHistoryOf } from '../domain/state/sent-history.ts';
import type { TokenMetadata } from '../domain/state/snapshot.ts';

/**
 * The few IndexedDB records the service worker shares with the page, opened the way the page's idb-keyval stores
 * open them (one object store per database, keyed by the record's key). The names must equal store/keys.ts's; a
 * unit test holds them together, since the service worker may not import store/.
 */
export const SW_DATABASES = {
  inbox: { name: 'stacks-watch:inbox', store: 'alerts' },
  settings: { name: 'stacks-watch:settings', store: 'records' },
  watchlist: { name: 'stacks-watch:watchlist', store: 'records' },
  names: { name: 'stacks-watch:names', store: 'by-principal' },
  tokens: { name: 'stacks-watch:tokens', store: 'metadata' },
  snapshots: { name: 'stacks-watch:snapshots', store: 'by-principal' },
} as const;

type Place = (typeof SW_DATABASES)[keyof typeof SW_DATABASES];

/**
 * One connection per database for the worker's life (opening one costs more than the read it serves), closed and
 * forgotten when a newer version of the page wants to upgrade the database, or when the browser closes it.
 */
const connections = new Map<string, Promise<IDBDatabase>>();

function open({ name, store }: Place): Promise<IDBDatabase> {
  const known = connections.get(name);
  if (known) return known;
  const opened = new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => request.result.createObjectStore(store);
    request.onsuccess = () => {
      const db = request.result;
      db.onversionchange = () => {
        db.close();
        connections.delete(name);
      };
      db.onclose = () => connections.delete(name);
      resolve(db);
    };
    request.onerror = () => {
      connections.delete(name);
      reject(request.error);
    };
  });
  connections.set(name, opened);
  return opened;
}

/**
 * A transaction on the kept connection; when the browser has closed it meanwhile (site data cleared, a newer page
 * asking to upgrade), `transaction()` throws InvalidStateError at once, and one fresh connection is tried.
 */
async function transact(place: Place, mode: IDBTransactionMode): Promise<IDBTransaction> {
  const db = await open(place);
  try {
    return db.transaction(place.store, mode);
  } catch (error) {
    if (!(error instanceof DOMException) || error.name !== 'InvalidStateError') throw error;
    connections.delete(place.name);
    return (await open(place)).transaction(place.store, mode);
  }
}

/** Several records of one store in one transaction (a watch list can hold hundreds of addresses). */
async function readMany(place: Place, keys: readonly string[]): Promise<unknown[]> {
  if (keys.length === 0) return [];
  const transaction = await transact(place, 'readonly');
  const store = transaction.objectStore(place.store);
  return Promise.all(
    keys.map(
      (key) =>
        new Promise<unknown>((resolve, reject) => {
          const request = store.get(key);
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        }),
    ),
  );
}

const read = async <T>(place: Place, key: string): Promise<T | undefined> =>
  (await readMany(place, [key]))[0] as T | undefined;

export const readInboxEntry = (id: string): Promise<InboxEntry | undefined> => read(SW_DATABASES.inbox, id);

/**
 * These inbox entries by id, in one transaction (absent: not stored). An entry another version wrote in a shape this
 * one cannot tell is left out here (the page's inbox names it); the tray must not stop on it.
 */
export async function readInboxEntries(ids: readonly string[]): Promise<Map<string, InboxEntry>> {
  const unique = [...new Set(ids)];
  const values = await readMany(SW_DATABASES.inbox, unique);
  return new Map(unique.flatMap((id, index) => (isTellable(values[index], id) ? [[id, values[index]] as const] : [])));
}

/**
 * An entry the page's inbox reads (the same check: a damaged record is skipped, never thrown on), with its place on the
 * tray, which the page checks where it reads it (notify/deliveries.ts).
 */
function isTellable(value: unknown, id: string): value is InboxEntry {
  const tray = (value as { tray?: { tag?: unknown } } | undefined)?.tray;
  return readInboxRecord(value, id).ok && (tray === undefined || typeof tray?.tag === 'string');
}

/**
 * Reads an inbox record and writes its change in one transaction (none where the change gives nothing); resolves
 * with what was written.
 */
export async function updateInboxEntry(
  id: string,
  change: (entry: InboxEntry | undefined) => InboxEntry | undefined,
): Promise<InboxEntry | undefined> {
  const place = SW_DATABASES.inbox;
  const transaction = await transact(place, 'readwrite');
  return new Promise<InboxEntry | undefined>((resolve, reject) => {
    const store = transaction.objectStore(place.store);
    let written: InboxEntry | undefined;
    const request = store.get(id);
    request.onsuccess = () => {
      written = change(request.result as InboxEntry | undefined);
      if (written) store.put(written, id);
    };
    transaction.oncomplete = () => resolve(written);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** How the user wants alerts while the app is open and in front (the page's alert settings; toasts by default). */
export async function readWhileOpen(): Promise<'toast' | 'system'> {
  const record = await read<{ whileOpen?: unknown }>(SW_DATABASES.settings, 'alerts').catch(() => undefined);
  return record?.whileOpen === 'system' ? 'system' : 'toast';
}

/**
 * What this device calls the parties of an alert: the watch list's labels (one record), and the BNS names and token
 * metadata of only the principals and contracts asked for (the books can hold thousands).
 */
export async function readDeviceNames(
  principals: readonly string[],
  contracts: readonly string[],
): Promise<DeviceNames> {
  const [watchlist, names, tokens] = await Promise.all([
    read<unknown>(SW_DATABASES.watchlist, 'watchlist'),
    Promise.all(
      principals.map(async (principal) => [principal, await read<unknown>(SW_DATABASES.names, principal)] as const),
    ),
    Promise.all(
      contracts.map(async (contract) => [contract, await read<unknown>(SW_DATABASES.tokens, contract)] as const),
    ),
  ]);
  const watched = watchedNames(watchlist);
  return {
    watched,
    trusted: await readTrusted([...watched.keys()]),
    names: new Map(names.filter((pair): pair is readonly [string, string] => typeof pair[1] === 'string')),
    tokens: new Map(tokens.filter((pair): pair is readonly [string, TokenMetadata] => isTokenMetadata(pair[1]))),
  };
}

const isTokenMetadata = (value: unknown): value is TokenMetadata => {
  const { name, symbol, decimals } = (value ?? {}) as Record<string, unknown>;
  return typeof name === 'string' && typeof symbol === 'string' && Number.isSafeInteger(decimals);
};

/**
 * The addresses the user relies on, as the open app judges lookalikes: the watched ones and those they sent to (from
 * their stored snapshots). Snapshots that cannot be read leave the watched ones, never an error.
 */
async function readTrusted(watched: readonly string[]): Promise<Set<string>> {
  const stored = await readMany(SW_DATABASES.snapshots, watched).catch((error: unknown) => {
    console.warn('Judging lookalikes by the watched addresses alone: their snapshots could not be read', error);
    return [];
  });
  return trustedAddresses(
    watched,
    watched.map((principal, index) => sentHistoryOf(stored[index], principal)),
  );
}
