/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { isNotificationData, type AlertRequest } from '../domain/text/notification-content.ts';
import { closeClicked, openFromNotification, showAlert } from './alerts.ts';
import { navigationResponse } from './navigation.ts';
import { alreadyShownByPush, handlePush, queueOf, rememberShown } from './push.ts';
import { allSettled, serially, SUMMARIES } from './queues.ts';
import { trayNow } from './tray.ts';
import { shownOnScreen } from '../domain/text/notification-recovery.ts';
import type { InboxEntry } from '../domain/alerts/inbox.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// Every in-app page (the list, /address/…) is the same shell, opened at once with the server's security headers seen
// last, refreshed behind (see navigation.ts); the node's API lives on other origins. Registered first: the precache's
// own route would otherwise answer `/` with the shell as installed.
registerRoute(
  new NavigationRoute(({ request, event }) =>
    navigationResponse(request, (work) => (event as ExtendableEvent).waitUntil(work)),
  ),
);

// The app shell, versioned by the build: installed up front so that the app opens with no network.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// A new version waits until the user presses "Reload" in the page, which sends this message. Alerts come from the
// tab that runs the engine, with a port for the answer.
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  // A tab taking over asks which alerts a closed tab stored are on the tray already, once every alert queued before
  // its question has been shown: this worker owns the tray, the page never reads it.
  if (type === 'SHOWN') {
    const reply = event.ports[0];
    const { waiting } = event.data as { waiting?: unknown };
    const entries = Array.isArray(waiting) ? waiting.filter(isWaitingEntry) : [];
    event.waitUntil(
      // At most a couple of seconds: one alert stuck in its queue must not hold up every tab taking over.
      Promise.race([allSettled(), new Promise((resolve) => setTimeout(resolve, SETTLE_AT_MOST_MS))])
        .then(trayNow)
        .then((tray) => [...shownOnScreen(entries, tray)])
        .catch(() => [])
        .then((shown) => reply?.postMessage({ shown })),
    );
  }
  if (type === 'ALERT') {
    const reply = event.ports[0];
    const request = event.data as AlertRequest;
    // Summaries and retellings read what is on screen and change it: one at a time, in the order handed over.
    const queue = request.content.data.summary ? SUMMARIES : queueOf(request.content.data.ids[0] ?? '');
    event.waitUntil(
      serially(async () => {
        if (await alreadyShownByPush(request.content)) return 'inbox' as const;
        const via = await showAlert(request);
        if (via !== 'inbox') await rememberShown(request.content);
        return via;
      }, queue).then(
        (via) => reply?.postMessage({ via }),
        (error: unknown) => reply?.postMessage({ via: 'inbox', error: String(error) }),
      ),
    );
  }
});

/** How long a tab's question about the tray waits for the alerts handed over before it (they take milliseconds). */
const SETTLE_AT_MOST_MS = 2000;

/** An inbox entry as far as telling whether the tray shows it needs (a page's message is checked like any input). */
const isWaitingEntry = (value: unknown): value is InboxEntry => {
  const { id, title, phase } = (value ?? {}) as Record<string, unknown>;
  return typeof id === 'string' && typeof title === 'string' && typeof phase === 'string';
};

// A push from the relay (alerts while the app is closed): see push.ts for who shows what.
self.addEventListener('push', (event) => event.waitUntil(handlePush(event.data, 'notification' in event)));

// The push service ended this browser's subscription (Firefox tells; Chromium does not fire this): a new one with the
// same key at once, which the app sends to the relay the next time it opens (app/relay-link.ts renews it too).
self.addEventListener('pushsubscriptionchange', (event) => {
  const options = event.oldSubscription?.options;
  if (event.newSubscription || !options?.applicationServerKey) return;
  event.waitUntil(
    self.registration.pushManager
      .subscribe({ userVisibleOnly: true, applicationServerKey: options.applicationServerKey })
      .then(() => undefined),
  );
});

// A click closes its notification in the queue of its alert's states, so that a state placed as the user clicks
// cannot bring it back, then opens the transaction.
self.addEventListener('notificationclick', (event) => {
  const { notification } = event;
  const first = isNotificationData(notification.data) ? (notification.data.ids[0] ?? '') : '';
  event.waitUntil(
    serially(() => closeClicked(notification), queueOf(first)).then(() => openFromNotification(notification)),
  );
});

// The first install takes control at once, so the very first visit already works offline afterwards.
clientsClaim();
