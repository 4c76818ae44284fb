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
