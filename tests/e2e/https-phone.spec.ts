import { relayDataDir } from '../relay/pglite-template.ts';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import type { tempDir } from '../relay/harness.ts';
import { startPushStandIn, type PushStandIn } from '../relay/harness.ts';
import { alertLog, appWindows, control, openWatching, systemNotifications } from './support/alerts.ts';
import { startCaddy, type RunningCaddy } from './support/caddy.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { fakePush, serviceWorkerOf } from './support/fake-push.ts';

/**
 * docs/self-hosting.md on one machine: the production server (app and relay on one origin) behind Caddy with
 * automatic HTTPS (`tls internal`), reached by a hostname the browser maps to loopback, whose profile trusts
 * Caddy's certificate. A user opens the app over https, installs it, turns on alerts while the app is closed and
 * closes it; a transfer reaches a watched address; one notification shows it; the reopened inbox has it once; a
 * click opens that transaction. Headless Chromium reaches no real push service: the push service stand-in
 * (web-push-testing) receives the relay's push, which CDP hands to the service worker as a browser would.
 */
const HOSTNAME = 'stacks-watch.test';
const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
let pushService: PushStandIn;
let devnet: RunningDevnet;
let server: RunningServer;
let caddy: RunningCaddy;
let browser: TestBrowser;
let data: Awaited<ReturnType<typeof tempDir>>;
let clientHash = '';

beforeAll(async () => {
  pushService = await startPushStandIn();
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  data = await relayDataDir('https-phone-');
  const config = readServerConfig(
    [
      ...['--port', '0', '--testnet-node', devnet.url, '--data-dir', data.path, '--push-threads', '0'],
      ...['--trust-proxy', 'loopback', '--push-allow', pushService.origin],
    ],
    {},
    DIST,
  );
  server = await startServer(config, { devnet: devnet.url, relayHooks: { report: () => undefined, backoffMs: 50 } });
  caddy = await startCaddy(HOSTNAME, server.url);
  const subscription = await pushService.subscribe(server.relay!.vapidPublicKey);
  clientHash = subscription.clientHash;
  browser = await launchBrowser({
    args: [
      `--host-resolver-rules=MAP ${HOSTNAME} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1`,
      `--ignore-certificate-errors-spki-list=${caddy.spkiHashes.join(',')}`,
    ],
  });
  await browser.context.addInitScript(fakePush(subscription.endpoint, subscription.keys));
});

afterAll(async () => {
  await browser?.close();
  await caddy?.close();
  await server?.close();
  await devnet?.close();
  pushService?.close();
  await data?.remove();
});

interface Push {
  readonly v: 1;
  readonly alert: { id: string; txId: string | null; phase: string; title: string };
  /** The other sides of its transaction this device watches, in the same state (relay.md). */
  readonly otherSides?: Push['alert'][];
}

describe('on a phone: the app and its relay behind Caddy with HTTPS', () => {
  it('installs over https, alerts while closed once, and a click opens the transaction', async () => {
    const origin = caddy.origin;
    const [alice, bob] = devnet.node.chain.accounts.people;

    // Open over https: the service worker takes control and the browser offers to install the app.
    const page = await openWatching(browser.context, origin, [
      { address: alice!.address, label: 'Alice' },
      { address: bob!.address, label: 'Bob' },
    ]);
    expect(new URL(page.url()).protocol).toBe('https:');
    const cdp = await browser.context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: unknown[];
    };
    expect(installabilityErrors).toEqual([]);

    // Settings offers this origin's relay, prefilled from the runtime config the server gives.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: 'Send me alerts when the app is closed' }).click();
    await page.getByText(`On, through ${origin}/relay; the relay has your current watch list.`).waitFor();
    await page.close();

    const { tx_id } = await control(devnet, '/devnet/transfer', {
      sender: alice!.address,
      recipient: bob!.address,
      amount: '2500000',
    });
    const txId = String(tx_id);
    await control(devnet, '/devnet/mine');
    const bobId = `testnet:${bob!.address}:${txId}`;
    const pushes = await until(async () => {
      const messages = (await pushService.notifications(clientHash)).map((text) => JSON.parse(text) as Push);
      const confirmed = messages
        .flatMap((push) => [push.alert, ...(push.otherSides ?? [])])
        .filter((side) => side.phase === 'confirmed')
        .map((side) => side.id);
      return confirmed.includes(bobId) && confirmed.includes(`testnet:${alice!.address}:${txId}`)
        ? messages
        : undefined;
    });

    // The phone receives them with no page of the app open (the browser held open on about:blank): the service worker
    // shows Bob's once, as a system notification (with no window of the app there is nowhere to toast).
    const holder = await browser.context.newPage();
    expect(holder.url()).toBe('about:blank');
    const { cdp: swCdp, registrationId } = await serviceWorkerOf(holder, origin);
    for (const push of [...pushes, ...pushes])
      await swCdp.send('ServiceWorker.deliverPushMessage', { origin, registrationId, data: JSON.stringify(push) });
    expect(await appWindows(browser.context, origin)).toEqual([]);
    const bobsNotifications = async () =>
      (await systemNotifications(browser.context, origin)).filter((notification) => notification.ids.includes(bobId));
    // The pending state may be on screen first; its confirmation replaces it under the same tag, told with Alice's
    // side as one (both are watched).
    await expect
      .poll(async () => (await bobsNotifications()).map((notification) => notification.title))
      .toEqual(['2.50 STX · Alice → Bob']);
    const [shown] = await bobsNotifications();

    // Reopened, the inbox has it once.
    const reopened = await browser.context.newPage();
    await reopened.goto(origin);
    await reopened.locator('.connection-live').waitFor();
    await reopened.getByRole('link', { name: /Inbox/ }).click();
    // Alice's and Bob's sides, pushed and stored apart, are one row there.
    const rows = reopened.locator(`.inbox-entry[data-alert*="${txId}"]`);
    await rows.getByText('2.50 STX · Alice → Bob').waitFor();
    expect(await rows.count()).toBe(1);
    const entries = await until(async () => {
      const found = (await alertLog(reopened)).filter((candidate) => candidate.id === bobId);
      return found.length > 0 && found.every((entry) => !entry.undelivered) ? found : undefined;
    });
    expect(entries.map((entry) => entry.phase)).toEqual(['confirmed']);
    // Told by the system notification, not by a toast: the app was not open when the pushes came.
    expect(entries[0]!.deliveries.filter((delivery) => delivery.phase === 'confirmed').map((d) => d.via)).toEqual([
      'notification',
    ]);
    expect(await bobsNotifications()).toHaveLength(1);

    // A click on the notification opens that transaction.
    const worker = browser.context.serviceWorkers().find((candidate) => candidate.url().startsWith(origin))!;
    await worker.evaluate(`self.registration.getNotifications().then((list) => {
      const notification = list.find((candidate) => (candidate.data?.ids ?? []).includes(${JSON.stringify(bobId)}));
      self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    })`);
    await expect.poll(() => new URL(reopened.url()).pathname).toBe(`/address/${bob!.address}`);
    expect(new URL(reopened.url()).hash).toBe(`#tx-${txId}`);
    await expect.poll(() => reopened.locator(`#tx-${txId}`).isVisible()).toBe(true);

    // In the user's own words: the labels the device keeps, never sent to the relay (the service worker rewords).
    expect(JSON.stringify(pushes)).not.toMatch(/Alice|Bob/);
    expect(shown!.title).toBe('2.50 STX · Alice → Bob');
    expect(shown!.body).toContain('paid by Alice');
  });
});

async function until<T>(check: () => Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
