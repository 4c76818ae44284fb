import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { IdbWatchlistStore } from '../store/idb-watchlist-store.ts';
import { SnapshotBook } from '../store/snapshot-book.ts';
import { TokenCatalog } from '../store/token-catalog.ts';
import { BROADCAST_CHANNELS } from '../store/keys.ts';
import { createWatchlistController } from '../store/watchlist-state.ts';
import { App } from './App.tsx';
import { statusBoard } from './connection-status.ts';
import { listenForInstallOffer } from './pwa/install-prompt.ts';
import { registerServiceWorker } from './pwa/sw-bridge.ts';
import { monitorCommands } from './monitor-commands.ts';
import { SnapshotProvider } from './snapshot-context.tsx';
import { TokenCatalogProvider } from './token-context.tsx';
import { WatchlistProvider } from './watchlist-context.tsx';
import './styles.css';

listenForInstallOffer();
const controller = createWatchlistController(new IdbWatchlistStore(), {
  channel: new BroadcastChannel(BROADCAST_CHANNELS.watchlist),
});
void controller.load();
// The last known state, shown at once, online or not.
const book = new SnapshotBook();
void book.load();
const tokens = new TokenCatalog();
void tokens.load();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <WatchlistProvider controller={controller}>
      <SnapshotProvider book={book}>
        <TokenCatalogProvider catalog={tokens}>
          <App />
        </TokenCatalogProvider>
      </SnapshotProvider>
    </WatchlistProvider>
  </StrictMode>,
);

/** After the first paint: the service worker, and the live data engine (it brings the API client and Socket.IO). */
function afterFirstPaint(): void {
  if (import.meta.env.PROD) void registerServiceWorker();
  void import('../monitor/start-monitoring.ts').then(({ startMonitoring }) =>
    startMonitoring({ watchlist: controller, book, tokens, onStatus: statusBoard.set, commands: monitorCommands }),
  );
}
if (document.readyState === 'complete') afterFirstPaint();
else window.addEventListener('load', afterFirstPaint, { once: true });
