import type { AddressSnapshot } from '../domain/state/snapshot.ts';
import type { SnapshotBook } from '../store/snapshot-book.ts';
import { useAppStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

/** One principal's snapshot; re-renders only when that principal's changes (snapshots are never changed in place). */
export function useSnapshot(principal: string): AddressSnapshot | undefined {
  const { book } = useAppStores();
  return useStore(book.of(principal));
}

/** Every snapshot, for totals; re-renders on any change. */
export function useSnapshotBook(): SnapshotBook {
  const { book } = useAppStores();
  useStore(book.changes);
  return book;
}
