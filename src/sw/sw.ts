/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import type { TellRequest } from '../domain/text/notification-content.ts';
import { closeClicked, openFromNotification } from './alerts.ts';
import { navigationResponse } from './navigation.ts';
import { handlePush } from './push.ts';
import { serially } from './queues.ts';
import { tellOnTray, TRAY } from './tray.ts';

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
  // The tab that runs the engine hands over the alerts it stored (with where each goes on the tray): told, and
  // answered with how each reached the user. A tab taking over hands over what a closed tab stored unshown: the
  // tray shows each once, whatever it showed before.
  // A tab still running the version before this worker (until it reloads) hands over one notification's alerts, or
  // asks which are on screen: its alerts are told as stored, and it is told none are shown (it then hands them over).
  if (type === 'ALERT' || type === 'SHOWN') {
    const reply = event.ports[0];
    const { content, whileOpen } = (event.data ?? {}) as {
      content?: { data?: { ids?: unknown } };
      whileOpen?: unknown;
    };
    const request = readTellRequest({ ids: type === 'ALERT' ? content?.data?.ids : [], whileOpen });
    event.waitUntil(
      (request ? tellOnTray(request.ids, request.whileOpen) : Promise.reject(new Error('not an alert'))).then(
        ({ via }) =>
          reply?.postMessage(type === 'SHOWN' ? { shown: [] } : { via: via.get(request!.ids[0]!) ?? 'inbox' }),
        (error: unknown) =>
          reply?.postMessage(type === 'SHOWN' ? { shown: [] } : { via: 'inbox', error: String(error) }),
      ),
    );
  }
  if (type === 'TELL') {
    const reply = event.ports[0];
    const request = readTellRequest(event.data);
    if (!request) {
      reply?.postMessage({ error: 'not a list of alert ids' });
      return;
    }
    event.waitUntil(
      tellOnTray(request.ids, request.whileOpen).then(
        ({ via }) => reply?.postMessage({ via: [...via] }),
        (error: unknown) => reply?.postMessage({ error: String(error) }),
      ),
    );
  }
});

/** A page's TELL message, checked like any input. */
function readTellRequest(data: unknown): TellRequest | null {
  const { ids, whileOpen } = (data ?? {}) as Record<string, unknown>;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return null;
  return { type: 'TELL', ids, whileOpen: whileOpen === 'system' ? 'system' : 'toast' };
}

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
  event.waitUntil(serially(() => closeClicked(notification), TRAY).then(() => openFromNotification(notification)));
});

// The first install takes control at once, so the very first visit already works offline afterwards.
clientsClaim();
