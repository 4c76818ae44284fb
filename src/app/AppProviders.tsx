import { createContext, useContext, type ReactNode } from 'react';
import type { AlertSettingsStore } from '../store/alert-settings-store.ts';
import type { Inbox } from '../store/inbox.ts';
import type { NameBook } from '../store/name-book.ts';
import type { NodeSettingsStore } from '../store/node-settings-store.ts';
import type { RelaySettingsStore } from '../store/relay-settings-store.ts';
import type { SnapshotBook } from '../store/snapshot-book.ts';
import type { TokenCatalog } from '../store/token-catalog.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';
import type { PrivacyRecord } from './privacy-record.ts';
import type { RelayLink } from './relay-link.ts';

export interface AppStores {
  readonly watchlist: WatchlistController;
  readonly book: SnapshotBook;
  readonly tokens: TokenCatalog;
  readonly names?: NameBook;
  readonly settings: NodeSettingsStore;
  readonly inbox: Inbox;
  readonly alertSettings: AlertSettingsStore;
  /** Alerts while the app is closed (absent: the Settings section is not shown). */
  readonly relay?: { readonly store: RelaySettingsStore; readonly link: RelayLink };
  /** Which hosts were told what (absent: the "Who knows what" screen says nothing was recorded). */
  readonly privacy?: PrivacyRecord;
}

const StoresContext = createContext<AppStores | null>(null);

/**
 * Every store the screens read, in one place: the stores are made once (app/boot.tsx, or a test with its own), and
 * each screen follows the ones it reads through the hooks beside them (`useStore`).
 */
export function AppProviders({ stores, children }: { stores: AppStores; children: ReactNode }) {
  return <StoresContext value={stores}>{children}</StoresContext>;
}

export function useAppStores(): AppStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('The screens read their stores inside <AppProviders>');
  return stores;
}
