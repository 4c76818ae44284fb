import { createContext, useCallback, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { AddressSnapshot } from '../domain/state/snapshot.ts';
import type { SnapshotBook } from '../store/snapshot-book.ts';

const SnapshotContext = createContext<SnapshotBook | null>(null);

export function SnapshotProvider({ book, children }: { book: SnapshotBook; children: ReactNode }) {
  return <SnapshotContext value={book}>{children}</SnapshotContext>;
}

function useBook(): SnapshotBook {
  const book = useContext(SnapshotContext);
  if (!book) throw new Error('useSnapshot must be used inside <SnapshotProvider>');
  return book;
}

/** One principal's snapshot; re-renders only when that principal changes. */
export function useSnapshot(principal: string): AddressSnapshot | undefined {
  const book = useBook();
  const subscribe = useCallback((listener: () => void) => book.subscribe(principal, listener), [book, principal]);
  return useSyncExternalStore(subscribe, () => book.get(principal));
}

/** Every snapshot, for totals; re-renders on any change. */
export function useSnapshotBook(): SnapshotBook {
  const book = useBook();
  useSyncExternalStore(book.subscribeAll, () => book.version);
  return book;
}
