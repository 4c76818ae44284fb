import type { Workbox } from 'workbox-window';
import type { NotificationContent, PageMessage, TellRequest } from '../../domain/text/notification-content.ts';
import { trayOf } from '../../domain/alerts/tray-view.ts';
import type { DeliveryVia, InboxEntry } from '../../domain/alerts/inbox.ts';
import type { WhileOpen } from '../../store/alert-settings-store.ts';
import { trustedServiceWorkerUrl } from './trusted-script-url.ts';
import { offerUpdate } from './update-state.ts';

/**
 * The one module that talks to the service worker. It registers it, reports when a new version is waiting, and
 * switches to it only when the user asks: never a silent reload. Loaded after the first paint.
 */
let workbox: Workbox | null = null;

export async function registerServiceWorker(scriptUrl = '/sw.js'): Promise<void> {
  if (!('serviceWorker' in navigator) || workbox) return;
  const { Workbox } = await import('workbox-window');
  const registered = new Workbox(trustedServiceWorkerUrl(scriptUrl), { scope: '/', type: 'classic' });
  workbox = registered;
  registered.addEventListener('waiting', () =>
    offerUpdate(() => {
      // Activates the waiting version, then reloads once it controls the page.
      registered.addEventListener('controlling', () => window.location.reload());
      registered.messageSkipWaiting();
    }),
  );
  await registered.register();
}

/** What the service worker tells the page: a toast to show, or a notification the user clicked. */
export interface PageHandlers {
  toast(content: NotificationContent): void;
  open(path: string, ids: readonly string[]): void;
}

let pageHandlers: PageHandlers | null = null;

export function listenToServiceWorker(handlers: PageHandlers): void {
  pageHandlers = handlers;
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    const message = event.data as PageMessage | null;
    if (message?.type === 'TOAST') handlers.toast(message.content);
    if (message?.type === 'OPEN') handlers.open(message.path, message.ids);
  });
}

/**
 * Tells stored alerts through the service worker (its notifications survive the tab and their clicks reach it; it
 * owns the tray); without an active one (development, a first visit still installing), see `withoutWorker`.
 */
export async function tellAlerts(
  told: readonly InboxEntry[],
  whileOpen: WhileOpen,
): Promise<ReadonlyMap<string, DeliveryVia>> {
  // The worker controlling the page answers without a round trip to the browser for its registration.
  const worker = await activeWorker();
  if (!worker) return withoutWorker(told, whileOpen);
  const channel = new MessageChannel();
  const answer = new Promise<ReadonlyMap<string, DeliveryVia>>((resolve, reject) => {
    // A worker stopped or replaced meanwhile never answers: the alerts stay waiting and are told again (Deliveries).
    const silent = setTimeout(
      () => reject(new Error(`The service worker did not answer within ${ANSWER_MS / 1000} s`)),
      ANSWER_MS,
    );
    channel.port1.onmessage = (event: MessageEvent<{ via?: [string, DeliveryVia][]; error?: string }>) => {
      clearTimeout(silent);
      if (event.data.error) reject(new Error(`The service worker could not show alerts: ${event.data.error}`));
      else resolve(new Map(event.data.via ?? []));
    };
  });
  const ids = told.map(({ id }) => id);
  worker.postMessage({ type: 'TELL', ids, whileOpen } satisfies TellRequest, [channel.port2]);
  return answer;
}

/** How long the service worker may take to tell alerts (it takes milliseconds) before they count as not told. */
const ANSWER_MS = 10_000;

/** The worker that shows this page's alerts: the one controlling it, else its registration's active one. */
async function activeWorker(): Promise<ServiceWorker | null> {
  if (!('serviceWorker' in navigator)) return null;
  return navigator.serviceWorker.controller ?? (await navigator.serviceWorker.getRegistration())?.active ?? null;
}

/**
 * Alerts with no service worker to tell them: toasts in the focused page, else a wait for the worker being
 * installed (a first visit: the hand-over fails and is tried again, see notify/deliveries.ts), else the inbox alone.
 * The page never puts a notification on the system tray itself: only the worker does, so that one owner decides
 * what is on it.
 */
async function withoutWorker(
  told: readonly InboxEntry[],
  whileOpen: WhileOpen,
): Promise<ReadonlyMap<string, DeliveryVia>> {
  const granted = 'Notification' in window && Notification.permission === 'granted';
  const toast = document.hasFocus() && (whileOpen === 'toast' || !granted);
  const installing =
    !toast && granted && 'serviceWorker' in navigator && (await navigator.serviceWorker.getRegistration());
  if (installing) throw new Error('The service worker is not active yet: the alerts wait for it');
  if (!document.hasFocus()) return new Map(told.map(({ id }) => [id, 'inbox']));
  // As toasts, grouped as the tray would group them (a summary told before and gone stays in the inbox).
  const toasts = trayOf(told, []);
  for (const content of toasts) pageHandlers?.toast(content);
  return new Map(told.map(({ id }) => [id, toasts.some((t) => t.data.ids.includes(id)) ? 'toast' : 'inbox']));
}

/** The unread count on the installed app's icon, where the platform has one. */
export function setAppBadge(count: number): void {
  const badge = navigator as Navigator & {
    setAppBadge?: (count?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  const done = count > 0 ? badge.setAppBadge?.(count) : badge.clearAppBadge?.();
  void done?.catch(() => undefined);
}

/** The page's Web Push subscription, through the service worker's registration (push needs an active worker). */
export interface PushPort {
  /** The current subscription's JSON, or null when there is none. */
  current(): Promise<unknown>;
  /** Subscribes (user-visible only) with the relay's VAPID key; resolves with the subscription's JSON. */
  subscribe(applicationServerKey: Uint8Array<ArrayBuffer>): Promise<unknown>;
  /** Unsubscribes if subscribed; true when a subscription was ended. */
  unsubscribe(): Promise<boolean>;
}

async function pushManager(): Promise<PushManager> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window))
    throw new Error('This browser cannot receive push messages.');
  const registration = await navigator.serviceWorker.ready;
  return registration.pushManager;
}

export const browserPush: PushPort = {
  async current() {
    const subscription = await (await pushManager()).getSubscription();
    return subscription?.toJSON() ?? null;
  },
  async subscribe(applicationServerKey) {
    const manager = await pushManager();
    const existing = await manager.getSubscription();
    // A subscription made for another relay's key cannot be reused: the push service would refuse its pushes.
    if (existing) await existing.unsubscribe();
    const subscription = await manager.subscribe({ userVisibleOnly: true, applicationServerKey });
    return subscription.toJSON();
  },
  async unsubscribe() {
    const subscription = await (await pushManager()).getSubscription();
    return subscription ? subscription.unsubscribe() : false;
  },
};
