import type { TokenCatalog } from '../store/token-catalog.ts';
import { useAppStores } from './AppProviders.tsx';
import { useStore } from './use-store.ts';

/** The token catalog; re-renders when a token's metadata arrives. */
export function useTokenCatalog(): TokenCatalog {
  const { tokens } = useAppStores();
  useStore(tokens.changes);
  return tokens;
}
