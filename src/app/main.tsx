import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { IdbWatchlistStore } from '../store/idb-watchlist-store.ts';
import { NodeSettingsStore } from '../store/node-settings-store.ts';
import { SnapshotBook } from '../store/snapshot-book.ts';
import { TokenCatalog } from '../store/token-catalog.ts';
import { BROADCAST_CHANNELS } from '../store/keys.ts';
import { createWatchlistController } from '../store/watchlist-state.ts';
import { App } from './App.tsx';
import { AppProviders } from './AppProviders.tsx';
import { statusBoard } from './connection-status.ts';
import { listenForInstallOffer } from './pwa/install-prompt.ts';
import { registerServiceWorker } from './pwa/sw-bridge.ts';
import { monitorCommands } from './monitor-commands.ts';
import './styles.css';
import './screens.css';

listenForInstallOffer();
const controller = createWatchlistController(new IdbWatchlistStore(), {
  channel: new BroadcastChannel(BROADCAST_CHANNELS.watchlist),
});
// The watch list and the last known state of each address: what the first screen shows, online or not.
void controller.load();
const book = new SnapshotBook();
void book.load();
const tokens = new TokenCatalog();
const settings = new NodeSettingsStore();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProviders stores={{ watchlist: controller, book, tokens, settings }}>
      <App />
    </AppProviders>
  </StrictMode>,
);

/**
 * After the first paint: the service worker, token names and node settings (the first screen needs neither). The
 * live data engine (it brings the API client and Socket.IO) starts once something is watched, when the page is idle.
 */
function afterFirstPaint(): void {
  if (import.meta.env.PROD) void registerServiceWorker();
  void tokens.load().catch((error: unknown) => console.warn('Could not read the token names', error));
  const settingsLoaded = settings
    .load()
    .catch((error: unknown) => console.warn('Could not read the node settings', error));
  const startEngine = () =>
    void Promise.all([import('../monitor/start-monitoring.ts'), settingsLoaded]).then(([{ startMonitoring }]) =>
      startMonitoring({
        watchlist: controller,
        book,
        tokens,
        settings,
        onStatus: statusBoard.set,
        commands: monitorCommands,
      }),
    );
  const stopWaiting = controller.subscribe(whenSomethingIsWatched);
  whenSomethingIsWatched();
  function whenSomethingIsWatched(): void {
    const state = controller.getState();
    if (state.status !== 'ready' || state.entries.length === 0) return;
    stopWaiting();
    if ('requestIdleCallback' in window) requestIdleCallback(startEngine, { timeout: 2000 });
    else setTimeout(startEngine, 0);
  }
}
if (document.readyState === 'complete') afterFirstPaint();
else window.addEventListener('load', afterFirstPaint, { once: true });
