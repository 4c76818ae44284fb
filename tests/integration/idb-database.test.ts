import { get, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { openDatabase } from '../../src/store/idb-database.ts';
import { KEYS } from '../../src/store/keys.ts';
import { StorageHealthBoard } from '../../src/store/storage-health.ts';

let count = 0;
const freshName = () => `stacks-watch:connection-test-${++count}`;

/** Another tab's connection, as a plain IndexedDB open (at `version`, or the current one). */
function openOther(name: string, version?: number): { request: IDBOpenDBRequest; events: string[] } {
  const request = indexedDB.open(name, version);
  const events: string[] = [];
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains('records')) request.result.createObjectStore('records');
  };
  request.onblocked = () => events.push('blocked');
  request.onsuccess = () => events.push('success');
  return { request, events };
}

const opened = (other: { request: IDBOpenDBRequest }): Promise<IDBDatabase> =>
  new Promise((resolve, reject) => {
    if (other.request.readyState === 'done') return resolve(other.request.result);
    other.request.addEventListener('success', () => resolve(other.request.result));
    other.request.addEventListener('error', () => reject(other.request.error));
  });

/** Resolves once the board says `condition`. */
const when = (health: StorageHealthBoard, condition: (state: ReturnType<StorageHealthBoard['get']>) => boolean) =>
  new Promise<void>((resolve) => {
    const stop = health.subscribe(() => {
      if (!condition(health.get())) return;
      stop();
      resolve();
    });
  });

describe('a database among tabs', () => {
  it('lets go at once when a newer version upgrades it, then refuses with a VersionError', async () => {
    const name = freshName();
    const health = new StorageHealthBoard();
    const store = openDatabase(name, 'records', 1, health);
    await set('kept', 'value', store);

    const newer = openOther(name, 2);
    const db = await opened(newer);
    expect(newer.events).toEqual(['success']);
    expect(db.version).toBe(2);
    expect(health.get().replacedBy).toBe(2);
    await expect(set('later', 'value', store)).rejects.toMatchObject({ name: 'VersionError' });
    db.close();
  });

  it('says so when an older tab holds it up, and opens once that tab lets go', async () => {
    const name = freshName();
    const older = await opened(openOther(name, 1));
    const health = new StorageHealthBoard();
    const store = openDatabase(name, 'records', 2, health);

    const blocked = when(health, (state) => state.blocked.length > 0);
    const written = set('key', 'value', store);
    await blocked;
    expect(health.get().blocked).toEqual([name]);
    older.close();
    await written;
    expect(health.get().blocked).toEqual([]);
    expect(await get('key', store)).toBe('value');
  });

  it('finds it deleted under the page, tells it once, and the next write makes it again', async () => {
    const name = freshName();
    const health = new StorageHealthBoard();
    const store = openDatabase(name, 'records', 1, health);
    await set('key', 'value', store);
    let cleared = 0;
    health.onCleared(name, () => (cleared += 1));

    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => reject(request.error);
    });
    expect(health.get().cleared).toBe(false);
    await set('again', 'value', store);
    expect(cleared).toBe(1);
    expect(health.get().cleared).toBe(true);
    expect(await get('again', store)).toBe('value');
    expect(await get('key', store)).toBeUndefined();
  });
});

describe('a damaged settings record', () => {
  it('is named, read for what it can, and kept by the write that replaces it', async () => {
    const name = freshName();
    const health = new StorageHealthBoard();
    const db = openDatabase(name, 'records', 1, health);
    const damaged = { version: 1, whileOpen: 'sometimes', rules: 'none' };
    await set('alerts', damaged, db);

    const store = new AlertSettingsStore(db, null, health);
    await store.load();
    expect(store.get()).toEqual({ whileOpen: 'toast', rules: {} });
    expect(health.get().damaged).toEqual([
      expect.objectContaining({ record: 'the alert settings', place: 'stacks-watch:settings/alerts', value: damaged }),
    ]);
    expect(await get('alerts', db)).toEqual(damaged);

    await store.setWhileOpen('system');
    expect(await get('alerts', db)).toEqual({ version: 1, whileOpen: 'system', rules: {} });
    const keys = await new Promise<IDBValidKey[]>((resolve) =>
      db('readonly', (objects) => {
        const request = objects.getAllKeys();
        request.onsuccess = () => resolve(request.result);
      }),
    );
    const aside = keys.map(String).filter((key) => key.startsWith('alerts:set-aside:'));
    expect(await Promise.all(aside.map((key) => get(key, db)))).toEqual([damaged]);
    expect(KEYS.setAside('alerts', 0)).toBe('alerts:set-aside:1970-01-01T00:00:00.000Z');
  });
});
