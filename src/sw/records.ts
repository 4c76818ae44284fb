/// <reference lib="webworker" />
import type { InboxEntry } from '../domain/inbox.ts';

/**
 * The few IndexedDB records the service worker shares with the page, opened the way the page's idb-keyval stores
 * open them (one object store per database, keyed by the record's key). The names must equal store/keys.ts's; a
 * unit test holds them together, since the service worker may not import store/.
 */
export const SW_DATABASES = {
  inbox: { name: 'stacks-watch:inbox', store: 'alerts' },
  settings: { name: 'stacks-watch:settings', store: 'records' },
} as const;

type Place = (typeof SW_DATABASES)[keyof typeof SW_DATABASES];

function open({ name, store }: Place): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name);
    request.onupgradeneeded = () => request.result.createObjectStore(store);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function read<T>(place: Place, key: string): Promise<T | undefined> {
  const db = await open(place);
  try {
    return await new Promise<T | undefined>((resolve, reject) => {
      const request = db.transaction(place.store, 'readonly').objectStore(place.store).get(key);
      request.onsuccess = () => resolve(request.result as T | undefined);
      request.onerror = () => reject(request.error);
    });
  } finally {
    db.close();
  }
}

export const readInboxEntry = (id: string): Promise<InboxEntry | undefined> => read(SW_DATABASES.inbox, id);

/** Reads an inbox record and writes its change in one transaction; resolves with what was written. */
export async function updateInboxEntry(
  id: string,
  change: (entry: InboxEntry | undefined) => InboxEntry,
): Promise<InboxEntry> {
  const place = SW_DATABASES.inbox;
  const db = await open(place);
  try {
    return await new Promise<InboxEntry>((resolve, reject) => {
      const transaction = db.transaction(place.store, 'readwrite');
      const store = transaction.objectStore(place.store);
      let written: InboxEntry;
      const request = store.get(id);
      request.onsuccess = () => {
        written = change(request.result as InboxEntry | undefined);
        store.put(written, id);
      };
      transaction.oncomplete = () => resolve(written);
      transaction.onerror = () => reject(transaction.error);
      transaction.onabort = () => reject(transaction.error);
    });
  } finally {
    db.close();
  }
}

/** How the user wants alerts while the app is open and in front (the page's alert settings; toasts by default). */
export async function readWhileOpen(): Promise<'toast' | 'system'> {
  const record = await read<{ whileOpen?: unknown }>(SW_DATABASES.settings, 'alerts').catch(() => undefined);
  return record?.whileOpen === 'system' ? 'system' : 'toast';
}
