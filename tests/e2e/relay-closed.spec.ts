import { relayDataDir } from '../relay/pglite-template.ts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { decodePushPayload, type RelayAlert } from '../../src/domain/relay/relay-message.ts';
import { readConfig } from '../../src/relay/config.ts';
import { startRelay, type RunningRelay } from '../../src/relay/relay.ts';
import { freePort, startPushStandIn, type PushStandIn } from '../relay/harness.ts';
import { alertLog, appWindows, control, openWatching, systemNotifications } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { fakePush, serviceWorkerOf } from './support/fake-push.ts';

/**
 * The "done" path, end to end with the real relay: the app turns on "Alerts when the app is closed", the
 * tab closes, a devnet transfer reaches a watched address, the relay pushes it (VAPID, aes128gcm) to a push
 * service stand-in (web-push-testing, which checks and decrypts), and the decrypted push handed to the service
 * worker (CDP ServiceWorker.deliverPushMessage, as a browser's push service would) shows one notification; the
 * reopened app has the alert once in its inbox. Headless Chromium reaches no real push service, so
 * PushManager.subscribe returns the stand-in's subscription, made with the relay's VAPID key.
 */
let pushService: PushStandIn;
let devnet: RunningDevnet;
let relay: RunningRelay;
let server: AppServer;
let browser: TestBrowser;
let dir: { path: string; remove(): Promise<void> };
let clientHash = '';

beforeAll(async () => {
  pushService = await startPushStandIn();
  devnet = await startDevnet({ port: 0, blockMs: null });
  dir = await relayDataDir('relay-e2e-');
  const [relayPort, appPort] = [await freePort(), await freePort()];
  const appOrigin = `http://127.0.0.1:${appPort}`;
  const config = readConfig(
    [
      ...['--testnet-node', devnet.url, '--data-dir', dir.path, '--port', String(relayPort)],
      ...['--app-origins', appOrigin, '--push-allow', pushService.origin],
    ],
    {},
  );
  relay = await startRelay(config, { report: () => undefined, backoffMs: 50 });
  server = await serveApp({ port: appPort, runtimeConfig: { devnet: { url: devnet.url }, relay: { url: relay.url } } });
  const subscription = await pushService.subscribe(relay.vapidPublicKey);
  clientHash = subscription.clientHash;
  browser = await launchBrowser();
  await browser.context.addInitScript(fakePush(subscription.endpoint, subscription.keys));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await relay?.close();
  await devnet?.close();
  pushService?.close();
  await dir?.remove();
});

describe('alerts when the app is closed, through the real relay', () => {
  it('a transfer made while the tab is closed is pushed once per state, shown once, and in the inbox once', async () => {
    const [alice, bob] = devnet.node.chain.accounts.people;
    const page = await openWatching(browser.context, server.url, [
      { address: alice!.address, label: 'Alice' },
      { address: bob!.address, label: 'Bob' },
    ]);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: 'Send me alerts when the app is closed' }).click();
    await page.getByText(/On, through .*; the relay has your current watch list\./).waitFor();
    await page.close();

    const { tx_id } = await control(devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      amount: '2500000',
    });
    await control(devnet, '/devnet/mine');
    const bobId = `testnet:${bob!.address}:${String(tx_id)}`;
    const aliceId = `testnet:${alice!.address}:${String(tx_id)}`;
    // Both sides watched on this device: one push per state of the transaction, carrying Alice's side and Bob's.
    const pushes = await until(async () => {
      const messages = (await pushService.notifications(clientHash)).map((text) => JSON.parse(text) as Push);
      const confirmed = messages.flatMap(read).filter((side) => side.phase === 'confirmed');
      const ids = confirmed.map((side) => side.id);
      return ids.includes(bobId) && ids.includes(aliceId) ? messages : undefined;
    });
    const phases = pushes.map((push) => read(push)[0]!.phase);
    expect(new Set(phases).size).toBe(phases.length);
    for (const push of pushes)
      expect(
        read(push)
          .map((side) => side.id)
          .sort(),
      ).toEqual([aliceId, bobId].sort());
    expect(pushes.flatMap(read).every((side) => side.txId === tx_id)).toBe(true);
    const mined = pushes.find((push) => read(push)[0]!.phase === 'confirmed')!;
    // A Declarative Web Push message (the relay knows the app's origin): one notification in the transaction's words
    // (the relay's: the BNS names it knows, never the labels), under its tag, opening the recipient's page.
    expect(mined).toMatchObject({
      web_push: 8030,
      mutable: true,
      notification: {
        title: '2.50 STX · alice.btc → bob.btc',
        tag: `tx:testnet:${String(tx_id)}`,
        navigate: `${server.url}/address/${bob!.address}#tx-${tx_id}`,
      },
    });
    expect(JSON.stringify(pushes)).not.toMatch(/Alice|Bob/);

    // The device receives them with no page of the app open (the browser held open on about:blank), so the service
    // worker can only show them as system notifications, each once.
    const holder = await browser.context.newPage();
    expect(holder.url()).toBe('about:blank');
    const { cdp, registrationId } = await serviceWorkerOf(holder, server.url);
    for (const push of [...pushes, ...pushes])
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: server.url,
        registrationId,
        data: JSON.stringify(push),
      });
    expect(await appWindows(browser.context, server.url)).toEqual([]);
    // Delivered pushes are handled one after another (pending, then confirmed under the same tag): wait for the last.
    // In the user's words: the labels this device gave, which the relay never learned. Both addresses are watched
    // here: their pushes end as one notification under the transaction's tag.
    const shownWords = async () =>
      (await systemNotifications(browser.context, server.url)).map((n) => [n.tag, n.title, [...n.ids].sort()]);
    await expect
      .poll(shownWords)
      .toEqual([[`tx:testnet:${String(tx_id)}`, '2.50 STX · Alice → Bob', [aliceId, bobId].sort()]]);

    // Reopened, the app has the alert once, in its final state, shown by the push and not again by the app.
    const reopened = await browser.context.newPage();
    await reopened.goto(server.url);
    await reopened.locator('.connection-live').waitFor();
    await reopened.getByRole('link', { name: /Inbox/ }).click();
    // Both pushed sides, stored apart, are one row there, in this device's labels.
    const rows = reopened.locator(`.inbox-entry[data-alert*="${String(tx_id)}"]`);
    await rows.getByText('2.50 STX · Alice → Bob').waitFor();
    expect(await rows.count()).toBe(1);
    const entry = await until(async () => {
      const found = (await alertLog(reopened)).find((candidate) => candidate.id === bobId);
      return found && !found.undelivered ? found : undefined;
    });
    expect(entry).toMatchObject({ phase: 'confirmed', title: 'Received 2.50 STX', body: 'Bob\nFrom Alice' });
    const shown = entry.deliveries.filter((delivery) => delivery.via === 'notification').map((d) => d.phase);
    expect(shown.filter((phase) => phase === 'confirmed')).toEqual(['confirmed']);
    expect(entry.deliveries.filter((delivery) => delivery.via === 'toast')).toEqual([]);
    expect(await notificationCount(reopened, bobId)).toBe(1);
  });
});

type Push = Record<string, unknown>;

/** A push message as the device reads it: the sides it tells. */
function read(push: Push): RelayAlert[] {
  const sides = decodePushPayload(push);
  if (!sides.ok) throw new Error(sides.error);
  return [...sides.value];
}

async function notificationCount(page: Page, id: string): Promise<number> {
  return page.evaluate(
    `navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((list) => list.filter((n) => (n.data?.ids ?? []).includes(${JSON.stringify(id)})).length)`,
  );
}

async function until<T>(check: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
