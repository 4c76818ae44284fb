import { relayDataDir } from '../relay/pglite-template.ts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { readConfig, type RelayConfig } from '../../src/relay/config.ts';
import { startRelay, type RunningRelay } from '../../src/relay/relay.ts';
import { freePort, startPushStandIn, type PushStandIn } from '../relay/harness.ts';
import { openWatching } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { fakePush } from './support/fake-push.ts';

/**
 * The real relay away: not started yet when the user turns closed-app alerts on, and restarted while the watch list
 * changes. What the user reads in Settings, and when the relay gets the list.
 */
let pushService: PushStandIn;
let devnet: RunningDevnet;
let relay: RunningRelay | null = null;
let config: RelayConfig;
let server: AppServer;
let browser: TestBrowser;
let dir: { path: string; remove(): Promise<void> };

beforeAll(async () => {
  pushService = await startPushStandIn();
  devnet = await startDevnet({ port: 0, blockMs: null });
  dir = await relayDataDir('relay-down-');
  const [relayPort, appPort] = [await freePort(), await freePort()];
  config = readConfig(
    [
      ...['--testnet-node', devnet.url, '--data-dir', dir.path, '--port', String(relayPort), '--push-threads', '0'],
      ...['--app-origins', `http://127.0.0.1:${appPort}`, '--push-allow', pushService.origin],
    ],
    {},
  );
  // Started only to learn its key for the push stand-in's subscription, then stopped: the relay is down.
  relay = await startRelay(config, { report: () => undefined });
  const subscription = await pushService.subscribe(relay.vapidPublicKey);
  await relay.close();
  relay = null;
  server = await serveApp({
    port: appPort,
    runtimeConfig: { devnet: { url: devnet.url }, relay: { url: `http://127.0.0.1:${relayPort}` } },
  });
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

const toggle = (page: Page) => page.getByRole('switch', { name: 'Send me alerts when the app is closed' });
const watchedByRelay = async (): Promise<string[]> => {
  const health = (await (await fetch(`${relay!.url}/health`)).json()) as {
    networks?: Record<string, { principals?: number }>;
  };
  return Object.entries(health.networks ?? {}).map(([network, { principals }]) => `${network}:${principals ?? 0}`);
};

describe('alerts when the app is closed, with the relay down', () => {
  let page: Page;

  it('turning on says nothing was turned on, and Try again turns it on once the relay is back', async () => {
    const [alice] = devnet.node.chain.accounts.people;
    page = await openWatching(browser.context, server.url, [{ address: alice!.address, label: 'Alice' }]);
    await page.getByRole('link', { name: 'Settings' }).click();
    await toggle(page).click();
    const said = page.getByRole('alert');
    await said.getByText(/^Nothing was turned on: The relay at .* could not be reached/).waitFor();
    expect(await said.textContent()).not.toMatch(/tried again/);
    expect(await toggle(page).isChecked()).toBe(false);
    expect(await page.getByText('Off: nothing is sent to a relay.').isVisible()).toBe(true);

    relay = await startRelay(config, { report: () => undefined });
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(/On, through .*; the relay has your current watch list\./).waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);
    await expect.poll(watchedByRelay).toContain('testnet:1');
  });

  it('a list changed while the relay restarts reaches it as soon as the device is back online', async () => {
    const [, bob] = devnet.node.chain.accounts.people;
    await relay!.close();
    relay = null;
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(bob!.address);
    await page.getByLabel('Label').fill('Bob');
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.getByRole('link', { name: 'Settings' }).click();
    // Refused again and again, its next try is 30 to 60 s away (a minute, jittered).
    const said = page.getByRole('alert');
    const words =
      /could not be reached.* Trying again in ([3-5]\d|60) s, or as soon as the app is back in view or online\./;
    await said.getByText(words).waitFor();
    const nextTry = Date.now() + Number(words.exec((await said.textContent()) ?? '')?.[1]) * 1000;
    // While refused, Settings does not claim the relay has the current list.
    expect(await page.getByText('the relay has your current watch list').count()).toBe(0);

    relay = await startRelay(config, { report: () => undefined });
    await browser.context.setOffline(true);
    await browser.context.setOffline(false);
    await said.waitFor({ state: 'detached' });
    expect(Date.now()).toBeLessThan(nextTry);
    await page.getByText(/On, through .*; the relay has your current watch list\./).waitFor();
    await expect.poll(watchedByRelay).toContain('testnet:2');
  });
});
