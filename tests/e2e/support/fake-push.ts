import type { CDPSession, Page } from 'playwright-core';

/**
 * An init script: PushManager answers with the push service stand-in's subscription. Headless Chromium reaches no
 * real push service, so this is the one part of the path a test replaces; the relay still encrypts to these keys.
 */
export function fakePush(endpoint: string, keys: { p256dh: string; auth: string }): string {
  return `(() => {
    const endpoint = ${JSON.stringify(endpoint)};
    const keys = ${JSON.stringify(keys)};
    let subscribed = false;
    const subscription = () => ({
      endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint, expirationTime: null, keys }),
      unsubscribe: async () => { subscribed = false; return true; },
    });
    PushManager.prototype.subscribe = async function () { subscribed = true; return subscription(); };
    PushManager.prototype.getSubscription = async function () { return subscribed ? subscription() : null; };
  })();`;
}

/**
 * An init script for the app-side relay tests (against the relay stand-in): PushManager answers with a subscription at
 * a local push service address, a new endpoint for each subscribe, kept across reloads in localStorage as a browser
 * keeps a real one; `window.__push` tells what was asked (subscribed, unsubscribed) and the endpoint now.
 */
export const KEPT_FAKE_PUSH = `(() => {
  // Kept across reloads, as a browser keeps a real subscription.
  const KEY = 'test:fake-push';
  const P256DH = 'BKd0w5ZyG1sFrCp1GC0T3Sgmwnt1j5XUpwv1n5nbvuR4m0I7pS6lQ2S0h3uWk-8-V0X_9qX1V1rQe5N7kq0oTQk';
  const saved = () => JSON.parse(localStorage.getItem(KEY) ?? 'null') ?? { subscribed: [], unsubscribed: 0, endpoint: null };
  const save = (state) => localStorage.setItem(KEY, JSON.stringify(state));
  const subscription = (endpoint) => ({
    endpoint,
    expirationTime: null,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: P256DH, auth: 'f0xSk8mXUy1YBl0ZqJ5Hnw' } }),
    unsubscribe: async () => {
      const state = saved();
      save({ ...state, endpoint: null, unsubscribed: state.unsubscribed + 1 });
      return true;
    },
  });
  Object.defineProperty(window, '__push', { get: saved });
  PushManager.prototype.subscribe = async function (options) {
    const state = saved();
    const endpoint = 'http://localhost:8990/notify/' + Math.random().toString(36).slice(2);
    const asked = { userVisibleOnly: options.userVisibleOnly, keyBytes: new Uint8Array(options.applicationServerKey).length };
    save({ ...state, endpoint, subscribed: [...state.subscribed, asked] });
    return subscription(endpoint);
  };
  PushManager.prototype.getSubscription = async function () {
    const { endpoint } = saved();
    return endpoint ? subscription(endpoint) : null;
  };
})();`;

/** A CDP session with the ServiceWorker domain on, and the app's service worker registration id. */
export async function serviceWorkerOf(
  page: Page,
  origin: string,
): Promise<{ cdp: CDPSession; registrationId: string }> {
  const cdp = await page.context().newCDPSession(page);
  const found = new Promise<string>((resolve) =>
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => r.scopeURL === `${origin}/` && !r.isDeleted);
      if (ours) resolve(ours.registrationId);
    }),
  );
  await cdp.send('ServiceWorker.enable');
  return { cdp, registrationId: await found };
}
