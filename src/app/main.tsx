import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AlertSettingsStore } from '../store/alert-settings-store.ts';
import { IdbWatchlistStore } from '../store/idb-watchlist-store.ts';
import { Inbox } from '../store/inbox.ts';
import { NodeSettingsStore } from '../store/node-settings-store.ts';
import { RelaySettingsStore } from '../store/relay-settings-store.ts';
import { SnapshotBook } from '../store/snapshot-book.ts';
import { NameBook } from '../store/name-book.ts';
import { TokenCatalog } from '../store/token-catalog.ts';
import { listenToOutbound } from '../chain/outbound.ts';
import { IdbDisclosureStore } from '../store/disclosure-store.ts';
import {
  BROADCAST_CHANNELS,
  openInboxDatabase,
  openNameDatabase,
  openPrivacyDatabase,
  openSettingsDatabase,
  openSnapshotDatabase,
  openTokenDatabase,
} from '../store/keys.ts';
import { createWatchlistController } from '../store/watchlist-state.ts';
import { trackPresence } from './presence.ts';
import { App } from './App.tsx';
import { AppProviders } from './AppProviders.tsx';
import { statusBoard } from './connection-status.ts';
import { leadWhenFirst } from './leadership.ts';
import { listenForInstallOffer } from './pwa/install-prompt.ts';
import {
  browserPush,
  deliverAlert,
  listenToServiceWorker,
  notificationsOnScreen,
  registerServiceWorker,
  setAppBadge,
} from './pwa/sw-bridge.ts';
import { monitorCommands } from './monitor-commands.ts';
import { navigate } from './router.ts';
import { PrivacyRecord } from './privacy-record.ts';
import { RelayLink } from './relay-link.ts';
import { resaveWhenCleared } from './storage-recovery.ts';
import { toasts } from './toasts.ts';
import './styles.css';
import './controls.css';
import './layout.css';
import './floating.css';
import './screens.css';
import './watch-rows.css';

const channel = (name: string) => new BroadcastChannel(name);

listenForInstallOffer();
const controller = createWatchlistController(new IdbWatchlistStore(), {
  channel: channel(BROADCAST_CHANNELS.watchlist),
});
// Every request to another host is recorded from the start: which host was told which watched address.
const privacy = new PrivacyRecord({
  store: new IdbDisclosureStore(openPrivacyDatabase()),
  watchlist: controller,
  ownOrigin: window.location.origin,
  channel: channel(BROADCAST_CHANNELS.privacy),
});
listenToOutbound(privacy.note);
privacy.start();
// The watch list and the last known state of each address: what the first screen shows, online or not.
void controller.load();
const book = new SnapshotBook(openSnapshotDatabase(), channel(BROADCAST_CHANNELS.snapshots));
void book.load();
const tokens = new TokenCatalog(openTokenDatabase(), channel(BROADCAST_CHANNELS.tokens));
const names = new NameBook(openNameDatabase(), channel(BROADCAST_CHANNELS.names));
const settings = new NodeSettingsStore();
const inbox = new Inbox(openInboxDatabase(), channel(BROADCAST_CHANNELS.inbox));
const alertSettings = new AlertSettingsStore(openSettingsDatabase(), channel(BROADCAST_CHANNELS.alertSettings));
const relayStore = new RelaySettingsStore();
const relayLink = new RelayLink({
  store: relayStore,
  watchlist: controller,
  alertSettings,
  inbox,
  push: browserPush,
  requestPermission: async () => ('Notification' in window ? Notification.requestPermission() : 'unsupported'),
});
resaveWhenCleared({
  watchlist: [controller],
  snapshots: [book],
  tokens: [tokens],
  names: [names],
  inbox: [inbox],
  settings: [settings, alertSettings, relayStore],
});
statusBoard.share(channel(BROADCAST_CHANNELS.status));
monitorCommands.share(channel(BROADCAST_CHANNELS.commands));

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <AppProviders
      stores={{
        watchlist: controller,
        book,
        tokens,
        names,
        settings,
        inbox,
        alertSettings,
        relay: { store: relayStore, link: relayLink },
        privacy,
      }}
    >
      <App />
    </AppProviders>
  </StrictMode>,
);

/**
 * After the first paint: the service worker, the inbox, token names and settings (the first screen needs none).
 * The live data engine (it brings the API client and Socket.IO) starts once something is watched, when the page is
 * idle, in one tab at a time: the first tab open leads, the others follow it.
 */
function afterFirstPaint(): void {
  if (import.meta.env.PROD) void registerServiceWorker();
  listenToServiceWorker({
    toast: toasts.show,
    open(path, ids) {
      navigate(path);
      void inbox.markRead(ids);
    },
  });
  const warn = (what: string) => (error: unknown) => console.warn(`Could not read ${what}`, error);
  void tokens.load().catch(warn('the token names'));
  void names.load().catch(warn('the BNS names'));
  const loaded = Promise.all([
    settings.load().catch(warn('the node settings')),
    alertSettings.load().catch(warn('the alert settings')),
    inbox.load().catch(warn('the inbox')),
  ]);
  // With alerts while closed on: what the relay told meanwhile, in one request, and its copy of the list kept current,
  // by one tab at a time (every tab hears the same watch-list changes; one copy sent is enough).
  void Promise.all([loaded, relayStore.load().catch(warn('the relay settings'))]).then(() =>
    leadWhenFirst(() => void relayLink.start(), 'stacks-watch:relay'),
  );
  inbox.subscribe(() => setAppBadge(inbox.unread()));
  const away = trackPresence();
  const startEngine = () =>
    void Promise.all([import('../monitor/start-monitoring.ts'), import('../notify/start-alerts.ts'), loaded]).then(
      ([{ startMonitoring }, { createAlerter }]) => {
        const alerter = createAlerter({
          watchlist: controller,
          book,
          tokens,
          names,
          inbox,
          settings: alertSettings,
          deliver: deliverAlert,
          onScreen: notificationsOnScreen,
          away,
          report: console.warn,
        });
        void alerter.start(book.all());
        return startMonitoring({
          watchlist: controller,
          book,
          tokens,
          names,
          settings,
          onStatus: statusBoard.set,
          commands: monitorCommands,
          sink: alerter,
        });
      },
    );
  const stopWaiting = controller.subscribe(whenSomethingIsWatched);
  whenSomethingIsWatched();
  function whenSomethingIsWatched(): void {
    const state = controller.getState();
    if (state.status !== 'ready' || state.entries.length === 0) return;
    stopWaiting();
    const lead = () => leadWhenFirst(startEngine);
    if ('requestIdleCallback' in window) requestIdleCallback(lead, { timeout: 2000 });
    else setTimeout(lead, 0);
  }
}
if (document.readyState === 'complete') afterFirstPaint();
else window.addEventListener('load', afterFirstPaint, { once: true });
