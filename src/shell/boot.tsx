/* The app itself: its stores, React, and after the first paint everything else (app/after-paint.ts). Loaded by
   shell/main.ts once the page's shell has painted. */
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AlertSettingsStore } from '../store/alert-settings-store.ts';
import { IdbWatchlistStore } from '../store/idb-watchlist-store.ts';
import { Inbox } from '../store/inbox.ts';
import { NodeSettingsStore } from '../store/node-settings-store.ts';
import { SnapshotBook } from '../store/snapshot-book.ts';
import { NameBook } from '../store/name-book.ts';
import { LocalStorageRemovalJournal } from '../store/removal-journal-store.ts';
import { TokenCatalog } from '../store/token-catalog.ts';
import { listenToOutbound } from '../chain/outbound.ts';
import { keepRuntimeConfig } from '../chain/page/runtime-config-slot.ts';
import { createStore } from '../domain/create-store.ts';
import type { Outbound } from '../domain/privacy/disclosure.ts';
import {
  BROADCAST_CHANNELS,
  openInboxDatabase,
  openNameDatabase,
  openSettingsDatabase,
  openSnapshotDatabase,
  openTokenDatabase,
} from '../store/keys.ts';
import { createWatchlistController } from '../store/watchlist-controller.ts';
import type { FirstPaintStores } from '../app/after-paint.ts';
import { App } from './App.tsx';
import { AppProviders, type AppStores } from '../app/AppProviders.tsx';
import { statusBoard } from '../app/connection-status.ts';
import { listenForInstallOffer } from '../app/pwa/install-prompt.ts';
import { monitorCommands } from '../app/monitor-commands.ts';
import { failedToLoad } from '../app/pwa/update-state.ts';
import { resaveWhenCleared } from '../app/storage-recovery.ts';
import { offerUndo } from '../app/undo-offer.ts';
import { useStore } from '../app/use-store.ts';

const channel = (name: string) => new BroadcastChannel(name);

listenForInstallOffer();
// The server's config (its nodes, its relay) as last received, so that an offline start follows the same nodes.
keepRuntimeConfig(async () => {
  const [{ loadKeptRuntimeConfig }, { RuntimeConfigMemory }] = await Promise.all([
    import('../chain/page/runtime-config-kept.ts'),
    import('../store/runtime-config-memory.ts'),
  ]);
  return loadKeptRuntimeConfig(new RuntimeConfigMemory());
});
// Anything sent before the privacy record arrives (after the first paint) is kept for it: nothing goes unrecorded.
const sentBefore: { outbound: Outbound; at: number }[] = [];
const stopHolding = listenToOutbound((outbound) => void sentBefore.push({ outbound, at: Date.now() }));
const controller = createWatchlistController(new IdbWatchlistStore(), {
  channel: channel(BROADCAST_CHANNELS.watchlist),
  journal: new LocalStorageRemovalJournal(),
});
// The watch list and the last known state of each address: what the first screen shows, online or not. An Undo
// still running when the page before this one went away (a reload right after a Remove) is offered again.
void controller.load().then(() => {
  const kept = controller.takeKeptUndo();
  if (kept) offerUndo(controller, kept.removal, kept.leftMs);
});
const book = new SnapshotBook(openSnapshotDatabase(), channel(BROADCAST_CHANNELS.snapshots));
void book.load();
const stores: FirstPaintStores = {
  watchlist: controller,
  book,
  tokens: new TokenCatalog(openTokenDatabase(), channel(BROADCAST_CHANNELS.tokens)),
  names: new NameBook(openNameDatabase(), channel(BROADCAST_CHANNELS.names)),
  settings: new NodeSettingsStore(),
  inbox: new Inbox(openInboxDatabase(), channel(BROADCAST_CHANNELS.inbox)),
  alertSettings: new AlertSettingsStore(openSettingsDatabase(), channel(BROADCAST_CHANNELS.alertSettings)),
};
resaveWhenCleared({
  watchlist: [controller],
  snapshots: [book],
  tokens: [stores.tokens],
  names: [stores.names],
  inbox: [stores.inbox],
  settings: [stores.settings, stores.alertSettings],
});
statusBoard.share(channel(BROADCAST_CHANNELS.status));
monitorCommands.share(channel(BROADCAST_CHANNELS.commands));

/** The stores made after the first paint (alerts while closed, the privacy record), once they are. */
const later = createStore<Pick<AppStores, 'relay' | 'privacy'>>({});

function Root() {
  const { relay, privacy } = useStore(later);
  return (
    <AppProviders stores={{ ...stores, relay, privacy }}>
      <App />
    </AppProviders>
  );
}

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
const reactRoot = createRoot(root);
// Rendered in slices that let the browser paint and answer input between them: no long task on a slow phone.
startTransition(() =>
  reactRoot.render(
    <StrictMode>
      <Root />
    </StrictMode>,
  ),
);

// A lazy screen whose file is gone (a newer version replaced it under this old tab) asks for a reload; the import
// still fails as it would, where it is handled.
window.addEventListener('vite:preloadError', (event) => failedToLoad((event as Event & { payload?: unknown }).payload));

function whenLoaded(): void {
  void import('../app/after-paint.ts').then(
    ({ afterFirstPaint }) => {
      stopHolding();
      later.set(afterFirstPaint({ stores, sentBefore: sentBefore.splice(0), channel }));
    },
    (error: unknown) => {
      stopHolding();
      failedToLoad(error);
    },
  );
}
// In a task of its own, after the one that starts rendering.
if (document.readyState === 'complete') setTimeout(whenLoaded, 0);
else window.addEventListener('load', whenLoaded, { once: true });
