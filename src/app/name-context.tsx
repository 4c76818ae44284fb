import type { NameBook } from '../store/name-book.ts';
import { useAppStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

/** The BNS names the engine learned (null where none is kept); re-renders when one arrives. */
export function useNameBook(): NameBook | null {
  const { names } = useAppStores();
  useStore(names?.changes);
  return names ?? null;
}
