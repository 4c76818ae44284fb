import { createContext, useContext, useMemo, type ReactNode } from 'react';
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

/** The stores a screen has from the first paint on; the two made after it (relay, privacy) have a context of their own. */
export type FirstPaintAppStores = Omit<AppStores, 'relay' | 'privacy'>;
type LaterAppStores = Pick<AppStores, 'relay' | 'privacy'>;

const StoresContext = createContext<FirstPaintAppStores | null>(null);
const LaterContext = createContext<LaterAppStores>({});

/**
 * Every store the screens read, in one place: the stores are made once (shell/boot.tsx, or a test with its own), and
 * each screen follows the ones it reads through the hooks beside them (`useStore`). The relay's and the privacy
 * record's arrive after the first paint, in a context apart: with one context, their arrival made every reader of
 * any store draw again (each of a thousand rows twice at start-up).
 */
export function AppProviders({ stores, children }: { stores: AppStores; children: ReactNode }) {
  const { watchlist, book, tokens, names, settings, inbox, alertSettings, relay, privacy } = stores;
  const firstPaint = useMemo(
    () => ({ watchlist, book, tokens, names, settings, inbox, alertSettings }),
    [watchlist, book, tokens, names, settings, inbox, alertSettings],
  );
  const later = useMemo(() => ({ relay, privacy }), [relay, privacy]);
  return (
    <StoresContext value={firstPaint}>
      <LaterContext value={later}>{children}</LaterContext>
    </StoresContext>
  );
}

export function useAppStores(): FirstPaintAppStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('The screens read their stores inside <AppProviders>');
  return stores;
}

/** The stores made after the first paint: absent until then, and where the app runs without them. */
export const useLaterStores = (): LaterAppStores => useContext(LaterContext);
