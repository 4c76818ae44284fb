import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { openWatching, waitForLive } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { recordTraffic } from './support/traffic.ts';

/**
 * The runtime config survives an offline start: the app served next to a devnet (as `npm start` serves it) points
 * testnet addresses at that devnet. Reloaded while the device is offline and its server out of reach, then back
 * online, it must follow them through the same devnet and tell no other host anything: the browser's own record of
 * every request is the truth. (Chromium's offline emulation does not reach a service worker's own requests, and the
 * config is fetched through the worker: the server is stopped as well, as it is out of reach for a device offline.)
 */
let devnet: RunningDevnet;
let server: AppServer;
let browser: TestBrowser;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } } });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await devnet?.close();
});

describe('the runtime config on an offline start', () => {
  it('is kept on the device: reloaded offline and back online, no request goes to a host not configured', async () => {
    const [alice] = devnet.node.chain.accounts.people;
    const origin = server.url;
    const page = await openWatching(browser.context, origin, [{ address: alice!.address, label: 'Alice' }]);
    const traffic = recordTraffic(browser.context);
    traffic.watch(page);

    await browser.context.setOffline(true);
    await server.close();
    await page.reload();
    await page.getByRole('listitem').filter({ hasText: 'Alice' }).waitFor();
    await browser.context.setOffline(false);
    // Live again: it follows the configured devnet (a default node cannot be reached from here at all).
    const live = await waitForLive(page).then(
      () => true,
      () => false,
    );
    server = await serveApp({ port: Number(new URL(origin).port), runtimeConfig: { devnet: { url: devnet.url } } });

    const configured = new Set([new URL(origin).host, new URL(devnet.url).host]);
    const elsewhere = traffic.sent.filter((sent) => !configured.has(sent.host)).map((sent) => sent.url);
    expect(elsewhere).toEqual([]);
    expect(live).toBe(true);
    expect(traffic.sent.some((sent) => sent.host === new URL(devnet.url).host)).toBe(true);
  });
});
