import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'idb-keyval';
import { App } from '../../src/app/App.tsx';
import { SnapshotProvider } from '../../src/app/snapshot-context.tsx';
import { WatchlistProvider } from '../../src/app/watchlist-context.tsx';
import { SnapshotBook } from '../../src/store/snapshot-book.ts';
import { TokenCatalog } from '../../src/store/token-catalog.ts';
import { TokenCatalogProvider } from '../../src/app/token-context.tsx';
import { IdbWatchlistStore } from '../../src/store/idb-watchlist-store.ts';
import { createWatchlistController } from '../../src/store/watchlist-state.ts';

let dbCount = 0;

/** The whole app over a fresh IndexedDB (fake-indexeddb), at the given path. */
export async function renderApp(path = '/', db = createStore(`stacks-watch:watchlist:app-${++dbCount}`, 'records')) {
  window.history.replaceState(null, '', path);
  const controller = createWatchlistController(new IdbWatchlistStore(db));
  await controller.load();
  const user = userEvent.setup();
  const view = render(
    <WatchlistProvider controller={controller}>
      <SnapshotProvider book={new SnapshotBook(createStore(`stacks-watch:snapshots:app-${dbCount}`, 'by-principal'))}>
        <TokenCatalogProvider catalog={new TokenCatalog(createStore(`stacks-watch:tokens:app-${dbCount}`, 'metadata'))}>
          <App />
        </TokenCatalogProvider>
      </SnapshotProvider>
    </WatchlistProvider>,
  );
  return { ...view, user, controller, db };
}
