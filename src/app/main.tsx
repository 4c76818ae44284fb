import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { IdbWatchlistStore } from '../store/idb-watchlist-store.ts';
import { BROADCAST_CHANNELS } from '../store/keys.ts';
import { createWatchlistController } from '../store/watchlist-state.ts';
import { App } from './App.tsx';
import { listenForInstallOffer } from './pwa/install-prompt.ts';
import { registerServiceWorker } from './pwa/sw-bridge.ts';
import { WatchlistProvider } from './watchlist-context.tsx';
import './styles.css';

listenForInstallOffer();
const controller = createWatchlistController(new IdbWatchlistStore(), {
  channel: new BroadcastChannel(BROADCAST_CHANNELS.watchlist),
});
void controller.load();

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <WatchlistProvider controller={controller}>
      <App />
    </WatchlistProvider>
  </StrictMode>,
);

if (import.meta.env.PROD) {
  const register = () => void registerServiceWorker();
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}
