import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'idb-keyval';
import { App } from '../../src/shell/App.tsx';
import { AppProviders, type AppStores } from '../../src/app/AppProviders.tsx';
import { IdbWatchlistStore } from '../../src/store/idb-watchlist-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { NodeSettingsStore } from '../../src/store/node-settings-store.ts';
import { SnapshotBook } from '../../src/store/snapshot-book.ts';
import { TokenCatalog } from '../../src/store/token-catalog.ts';
import { createWatchlistController } from '../../src/store/watchlist-controller.ts';

let dbCount = 0;

/** The whole app over a fresh IndexedDB (fake-indexeddb), at the given path. */
export async function renderApp(
  path = '/',
  db = createStore(`stacks-watch:watchlist:app-${++dbCount}`, 'records'),
  extra: (stores: Omit<AppStores, 'relay'>) => Partial<AppStores> = () => ({}),
) {
  window.history.replaceState(null, '', path);
  const controller = createWatchlistController(new IdbWatchlistStore(db));
  await controller.load();
  const user = userEvent.setup();
  const stores = {
    watchlist: controller,
    book: new SnapshotBook(createStore(`stacks-watch:snapshots:app-${dbCount}`, 'by-principal')),
    tokens: new TokenCatalog(createStore(`stacks-watch:tokens:app-${dbCount}`, 'metadata')),
    settings: new NodeSettingsStore(createStore(`stacks-watch:settings:app-${dbCount}`, 'records')),
    inbox: new Inbox(createStore(`stacks-watch:inbox:app-${dbCount}`, 'alerts')),
    alertSettings: new AlertSettingsStore(createStore(`stacks-watch:alert-settings:app-${dbCount}`, 'records')),
  };
  const all: AppStores = { ...stores, ...extra(stores) };
  const view = render(
    <AppProviders stores={all}>
      <App />
    </AppProviders>,
  );
  return { ...view, user, controller, db, stores: all };
}
