import type { ReactNode } from 'react';
import type { AlertSettingsStore } from '../store/alert-settings-store.ts';
import type { Inbox } from '../store/inbox.ts';
import type { NodeSettingsStore } from '../store/node-settings-store.ts';
import type { SnapshotBook } from '../store/snapshot-book.ts';
import type { TokenCatalog } from '../store/token-catalog.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';
import type { NameBook } from '../store/name-book.ts';
import { AlertsProvider } from './alerts-context.tsx';
import { NameBookProvider } from './name-context.tsx';
import { PrivacyProvider } from './privacy-context.tsx';
import type { PrivacyRecord } from './privacy-record.ts';
import { RelayProvider } from './relay-context.tsx';
import type { RelayLink } from './relay-link.ts';
import type { RelaySettingsStore } from '../store/relay-settings-store.ts';
import { SettingsProvider } from './settings-context.tsx';
import { SnapshotProvider } from './snapshot-context.tsx';
import { TokenCatalogProvider } from './token-context.tsx';
import { WatchlistProvider } from './watchlist-context.tsx';

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

/** Every store the screens read, in one place. */
export function AppProviders({ stores, children }: { stores: AppStores; children: ReactNode }) {
  return (
    <WatchlistProvider controller={stores.watchlist}>
      <SnapshotProvider book={stores.book}>
        <TokenCatalogProvider catalog={stores.tokens}>
          <NameBookProvider book={stores.names}>
            <SettingsProvider store={stores.settings}>
              <AlertsProvider inbox={stores.inbox} settings={stores.alertSettings}>
                <RelayProvider relay={stores.relay}>
                  <PrivacyProvider record={stores.privacy}>{children}</PrivacyProvider>
                </RelayProvider>
              </AlertsProvider>
            </SettingsProvider>
          </NameBookProvider>
        </TokenCatalogProvider>
      </SnapshotProvider>
    </WatchlistProvider>
  );
}
