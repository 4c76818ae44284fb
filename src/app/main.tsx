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
void controller.load();
// The last known state, shown at once, online or not.
const book = new SnapshotBook();
void book.load();
const tokens = new TokenCatalog();
void tokens.load();
const settings = new NodeSettingsStore();
const settingsLoaded = settings
  .load()
  .catch((error: unknown) => console.warn('Could not read the node settings', error));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProviders stores={{ watchlist: controller, book, tokens, settings }}>
      <App />
    </AppProviders>
  </StrictMode>,
);

/** After the first paint: the service worker, and the live data engine (it brings the API client and Socket.IO). */
function afterFirstPaint(): void {
  if (import.meta.env.PROD) void registerServiceWorker();
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
}
if (document.readyState === 'complete') afterFirstPaint();
else window.addEventListener('load', afterFirstPaint, { once: true });
