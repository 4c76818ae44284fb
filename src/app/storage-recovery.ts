import { DATABASES } from '../store/keys.ts';
import { storageHealth, type StorageHealth } from '../store/storage-health.ts';
import { useStore } from './use-store.ts';

/** A store that can write again what it holds in memory. */
interface Resaving {
  resave(): unknown;
}

/**
 * When a database is found deleted under the app (site data cleared while it runs), every store that keeps records
 * in it saves again what this tab holds, rather than going on with an empty database a reload would show.
 */
export function resaveWhenCleared(stores: Partial<Record<keyof typeof DATABASES, readonly Resaving[]>>): () => void {
  const stops = Object.entries(stores).map(([concern, inIt]) =>
    storageHealth.onCleared(DATABASES[concern as keyof typeof DATABASES], () => {
      for (const store of inIt ?? [])
        void Promise.resolve()
          .then(() => store.resave())
          .catch((error: unknown) => console.warn(`Could not save the ${concern} again`, error));
    }),
  );
  return () => stops.forEach((stop) => stop());
}

export const useStorageHealth = (): StorageHealth => useStore(storageHealth);

export const dismissStorageNotice = (what: 'cleared' | 'damaged'): void => storageHealth.dismiss(what);
