import type { Outbound } from '../domain/privacy/disclosure.ts';
import { listenToOutbound } from '../chain/outbound.ts';
import type { AlertSettingsStore } from '../store/alert-settings-store.ts';
import { IdbDisclosureStore } from '../store/disclosure-store.ts';
import type { Inbox } from '../store/inbox.ts';
import { BROADCAST_CHANNELS, openPrivacyDatabase } from '../store/keys.ts';
import type { NameBook } from '../store/name-book.ts';
import type { NodeSettingsStore } from '../store/node-settings-store.ts';
import { RelaySettingsStore } from '../store/relay-settings-store.ts';
import type { SnapshotBook } from '../store/snapshot-book.ts';
import type { TokenCatalog } from '../store/token-catalog.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';
import type { AppStores } from './AppProviders.tsx';
import { statusBoard } from './connection-status.ts';
import { leadWhenFirst } from './leadership.ts';
import { monitorCommands } from './monitor-commands.ts';
import { onWake } from './wake-events.ts';
import { trackPresence } from './presence.ts';
import { PrivacyRecord } from './privacy-record.ts';
import { browserPush, tellAlerts, listenToServiceWorker, registerServiceWorker, setAppBadge } from './pwa/sw-bridge.ts';
import { RelayLink } from './relay-link.ts';
import { relayWordsOnDevice } from './relay-words.ts';
import { navigate } from './router.ts';
import { unreadRows } from '../domain/alerts/inbox-pairs.ts';
import { resaveWhenCleared } from './storage-recovery.ts';
import { toasts } from './toasts.ts';
import { labelOf } from './watch-labels.ts';

/**
 * The stores the screens read, made with the first screen (shell/boot.tsx): the list and snapshots load at once, the
 * others (inbox, token names, settings) after the first paint, here.
 */
export interface FirstPaintStores {
  readonly watchlist: WatchlistController;
  readonly book: SnapshotBook;
  readonly tokens: TokenCatalog;
  readonly names: NameBook;
  readonly settings: NodeSettingsStore;
  readonly inbox: Inbox;
  readonly alertSettings: AlertSettingsStore;
}

export interface AfterPaintDeps {
  readonly stores: FirstPaintStores;
  /** What the page sent before the privacy record was here, and when: recorded first. */
  readonly sentBefore: readonly { readonly outbound: Outbound; readonly at: number }[];
  readonly channel: (name: string) => BroadcastChannel;
}

/**
 * After the first paint: the service worker, the privacy record, alerts while closed, and the inbox, token names and
 * settings read (the first screen shows without them). The live data engine (it brings the API client and Socket.IO) starts once
 * something is watched, when the page is idle, in one tab at a time: the first tab open leads, the others follow it.
 * Returns the stores the screens opened later read (Settings, "Who knows what").
 */
export function afterFirstPaint({ stores, sentBefore, channel }: AfterPaintDeps): Pick<AppStores, 'relay' | 'privacy'> {
  const { watchlist, book, tokens, names, settings, inbox, alertSettings } = stores;
  // Every request to another host is recorded: which host was told which watched address.
  const privacy = new PrivacyRecord({
    store: new IdbDisclosureStore(openPrivacyDatabase()),
    watchlist,
    ownOrigin: window.location.origin,
    channel: channel(BROADCAST_CHANNELS.privacy),
  });
  privacy.start();
  // Started first: it knows the watched addresses, so that what was sent before names them too.
  for (const { outbound, at } of sentBefore) privacy.note(outbound, at);
  listenToOutbound((outbound) => privacy.note(outbound));

  const relayStore = new RelaySettingsStore(undefined, undefined, channel(BROADCAST_CHANNELS.relaySettings));
  const relayLink = new RelayLink({
    store: relayStore,
    watchlist,
    alertSettings,
    inbox,
    push: browserPush,
    requestPermission: async () => ('Notification' in window ? Notification.requestPermission() : 'unsupported'),
    words: relayWordsOnDevice({ watchlist, names, tokens, snapshots: book }),
  });
  resaveWhenCleared({ settings: [relayStore] });

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
  inbox.countUnreadWith(unreadRows);
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
  // A CSV export a closed tab left half-way goes on where it stopped.
  void import('./history-exports.ts').then(({ historyExports }) => {
    historyExports.configure({ tokens, nodeChoices: settings.get, nameOf: labelOf(watchlist, names) });
    return loaded.then(() => historyExports.resume());
  });
  const away = trackPresence();
  // A tab that takes over reads the snapshots again as the tab that led before left them (book.lead): the alerts'
  // start-up replay must tell what that tab stored ahead of its alerts, before the first sync takes it as known.
  const readyToLead = () => Promise.all([loaded, book.lead()]);
  const startEngine = () =>
    void Promise.all([import('./engine/start-monitoring.ts'), import('./engine/start-alerts.ts'), readyToLead()]).then(
      ([{ startMonitoring }, { createAlerter }]) => {
        const alerter = createAlerter({
          watchlist,
          book,
          tokens,
          names,
          inbox,
          settings: alertSettings,
          deliver: tellAlerts,
          away,
          report: console.warn,
        });
        void alerter.start(book.all());
        return startMonitoring({
          watchlist,
          book,
          tokens,
          names,
          settings,
          onStatus: statusBoard.set,
          commands: monitorCommands,
          sink: alerter,
          wake: onWake,
        });
      },
    );
  const stopWaiting = watchlist.subscribe(whenSomethingIsWatched);
  whenSomethingIsWatched();
  function whenSomethingIsWatched(): void {
    const state = watchlist.getState();
    if (state.status !== 'ready' || state.entries.length === 0) return;
    stopWaiting();
    const lead = () => leadWhenFirst(startEngine);
    if ('requestIdleCallback' in window) requestIdleCallback(lead, { timeout: 2000 });
    else setTimeout(lead, 0);
  }
  return { relay: { store: relayStore, link: relayLink }, privacy };
}
