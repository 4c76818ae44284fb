/// <reference lib="webworker" />
import { clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import type { AlertRequest } from '../domain/alert-text.ts';
import { openFromNotification, showAlert } from './alerts.ts';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

// The app shell, versioned by the build: installed up front so that the app opens with no network.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// Every in-app page (the list, /address/…) is the same shell; the node's API lives on other origins.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));

// The page sends the next alert without waiting for the answer to the last. Those of one tag are shown in the order
// they came (a summary that grows must read the one on screen only once it is there); other tags do not wait.
const alerting = new Map<string, Promise<void>>();

// A new version waits until the user presses "Reload" in the page, which sends this message. Alerts come from the
// tab that runs the engine, with a port for the answer.
self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === 'ALERT') {
    const reply = event.ports[0];
    const request = event.data as AlertRequest;
    const tag = request.content.tag;
    const shown = (alerting.get(tag) ?? Promise.resolve()).then(() =>
      showAlert(request).then(
        (via) => reply?.postMessage({ via }),
        (error: unknown) => reply?.postMessage({ via: 'inbox', error: String(error) }),
      ),
    );
    alerting.set(tag, shown);
    void shown.then(() => {
      if (alerting.get(tag) === shown) alerting.delete(tag);
    });
    event.waitUntil(shown);
  }
});

self.addEventListener('notificationclick', (event) => event.waitUntil(openFromNotification(event.notification)));

// The first install takes control at once, so the very first visit already works offline afterwards.
clientsClaim();
