import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { NameBook } from '../store/name-book.ts';

const NameContext = createContext<NameBook | null>(null);

export function NameBookProvider({ book, children }: { book: NameBook | undefined; children: ReactNode }) {
  return <NameContext value={book ?? null}>{children}</NameContext>;
}

const NO_SUBSCRIPTION = () => () => {};

/** The BNS names the engine learned (null where none is kept); re-renders when one arrives. */
export function useNameBook(): NameBook | null {
  const book = useContext(NameContext);
  useSyncExternalStore(book?.subscribe ?? NO_SUBSCRIPTION, () => book?.version ?? 0);
  return book;
}
