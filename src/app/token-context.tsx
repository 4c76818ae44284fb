import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { TokenCatalog } from '../store/token-catalog.ts';

const TokenContext = createContext<TokenCatalog | null>(null);

export function TokenCatalogProvider({ catalog, children }: { catalog: TokenCatalog; children: ReactNode }) {
  return <TokenContext value={catalog}>{children}</TokenContext>;
}

/** The token catalog; re-renders when a token's metadata arrives. */
export function useTokenCatalog(): TokenCatalog {
  const catalog = useContext(TokenContext);
  if (!catalog) throw new Error('useTokenCatalog must be used inside <TokenCatalogProvider>');
  useSyncExternalStore(catalog.subscribe, () => catalog.version);
  return catalog;
}
