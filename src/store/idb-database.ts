import type { UseStore } from 'idb-keyval';
import type { StorageHealthBoard } from './storage-health.ts';

const REOPEN_DELAYS_MS = [0, 50, 200, 1000, 3000];

/**
 * An idb-keyval store on one connection that behaves well among tabs (idb-keyval's own `createStore` opens without
 * a version and never lets go of its connection, so a tab of a later build with a new schema would wait on it for
 * as long as it stays open):
 * - it opens at `version`, and says so when another tab's connection at an older version makes it wait (`blocked`);
 * - it closes at once when another tab upgrades the database (`versionchange`), and from then on fails with a
 *   VersionError instead of opening a database it no longer understands;
 * - it notices the database deleted under it (site data cleared): the browser closes the connection, or, if
 *   it did not, the next open finds the database new again. Either is reported once, and the next use opens the
 *   new, empty database, so the stores can save again what they hold.
 */
export function openDatabase(
  database: string,
  storeName: string,
  version: number,
  health: StorageHealthBoard,
): UseStore {
  let connection: Promise<IDBDatabase> | null = null;
  let current: IDBDatabase | null = null;
  let openedBefore = false;
  let lostReported = false;
  let replacedBy: number | null = null;

  const reportLost = (): void => {
    if (lostReported) return;
    lostReported = true;
    health.report({ kind: 'cleared', database });
  };
  const forget = (db: IDBDatabase): void => {
    if (current === db) {
      current = null;
      connection = null;
    }
  };

  const open = (): Promise<IDBDatabase> =>
    new Promise((resolve, reject) => {
      const request = indexedDB.open(database, version);
      request.onupgradeneeded = (event) => {
        if (event.oldVersion === 0 && openedBefore) reportLost();
        if (!request.result.objectStoreNames.contains(storeName)) request.result.createObjectStore(storeName);
      };
      request.onblocked = () => health.report({ kind: 'blocked', database });
      request.onsuccess = () => {
        const db = request.result;
        current = db;
        openedBefore = true;
        lostReported = false;
        health.report({ kind: 'opened', database });
        db.onversionchange = (event) => {
          db.close();
          forget(db);
          // A deletion (no new version) is found by the next open, as a clearing is.
          if (event.newVersion === null) return;
          replacedBy = event.newVersion;
          health.report({ kind: 'replaced', database, version: event.newVersion });
        };
        // Only a close the page did not ask for fires this: the data was deleted, or the disk failed under it.
        db.onclose = () => {
          forget(db);
          reportLost();
        };
        resolve(db);
      };
      request.onerror = () => {
        health.report({ kind: 'opened', database });
        reject(request.error ?? new DOMException(`${database} could not be opened`, 'UnknownError'));
      };
    });

  /**
   * While the browser is still deleting the site's data, opening again is aborted ("The connection was closed"):
   * after a lost connection, a few more tries, each a little later, until the deletion is over.
   */
  const reopen = async (): Promise<IDBDatabase> => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await open();
      } catch (error) {
        const aborted = error instanceof DOMException && error.name === 'AbortError';
        if (!aborted || !lostReported || attempt >= REOPEN_DELAYS_MS.length) throw error;
        await new Promise((resolve) => setTimeout(resolve, REOPEN_DELAYS_MS[attempt]));
      }
    }
  };

  const connect = (): Promise<IDBDatabase> => {
    if (replacedBy !== null)
      return Promise.reject(new DOMException(`${database} was upgraded to version ${replacedBy}`, 'VersionError'));
    if (!connection) {
      const opening = reopen();
      connection = opening;
      opening.catch(() => {
        if (connection === opening) connection = null;
      });
    }
    return connection;
  };

  /** A connection closing under the page throws InvalidStateError before its close event comes: one fresh try. */
  const transaction = async (mode: IDBTransactionMode): Promise<IDBTransaction> => {
    const db = await connect();
    try {
      return db.transaction(storeName, mode);
    } catch (error) {
      if (!(error instanceof DOMException) || error.name !== 'InvalidStateError') throw error;
      forget(db);
      if (replacedBy === null) reportLost();
      return (await connect()).transaction(storeName, mode);
    }
  };

  return async (mode, callback) => callback((await transaction(mode)).objectStore(storeName));
}
