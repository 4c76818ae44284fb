import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import type { RelayAlert } from '../../src/domain/relay/relay-message.ts';
import { alertLog, openWatching } from './support/alerts.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { KEPT_FAKE_PUSH } from './support/fake-push.ts';
import { startRelayStandIn, type RelayStandIn } from './support/relay-stand-in.ts';

/**
 * Alerts when the app is closed, at its edges (against the relay stand-in, which records what the app sends): the
 * setting shared by every tab, a relay that forgot the device and took it again, and a watch list that could not be
 * read, which must never reach the relay as an empty list.
 */
let relay: RelayStandIn;
let devnet: RunningDevnet;
let server: AppServer;
let browser: TestBrowser;

beforeAll(async () => {
  relay = await startRelayStandIn();
  devnet = await startDevnet({ port: 0, blockMs: null });
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url }, relay: { url: relay.url } } });
  relay.allowOrigin(server.url);
  browser = await launchBrowser();
  await browser.context.addInitScript(KEPT_FAKE_PUSH);
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await devnet?.close();
  await relay?.close();
});

const people = () => devnet.node.chain.accounts.people.map(({ address, label }) => ({ address, label }));
const toggle = (page: Page) => page.getByRole('switch', { name: 'Send me alerts when the app is closed' });
const status = (page: Page) => page.locator('.closed-alerts [role="status"]');
const watchesAtRelay = (id: string): string[] =>
  ((relay.devices.get(id)?.body as { watches?: { principal: string }[] } | undefined)?.watches ?? []).map(
    (watch) => watch.principal,
  );

const relayAlert = (principal: string, txId: string, cursor: string): RelayAlert => ({
  cursor,
  id: `testnet:${principal}:${txId}`,
  network: 'testnet',
  principal,
  txId,
  phase: 'confirmed',
  title: 'Received 1 STX',
  body: `${principal.slice(0, 5)}…`,
  path: `/address/${principal}#tx-${txId}`,
  at: Date.now(),
});

/** The relay settings as stored on the device (what the next start reads). */
function storedRelaySettings(page: Page): Promise<{ enabled: boolean; cursor: string | null } | null> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('stacks-watch:settings');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const request = open.result.transaction('records').objectStore('records').get('relay');
          request.onsuccess = () => {
            open.result.close();
            resolve((request.result as { enabled: boolean; cursor: string | null } | undefined) ?? null);
          };
          request.onerror = () => reject(request.error);
        };
      }),
  );
}

let first: Page;

describe('alerts when the app is closed, at the edges', () => {
  it('is one setting for every tab: turned on in one, the other shows it on and turns off the same device', async () => {
    const [alice, bob] = people();
    first = await openWatching(browser.context, server.url, [alice!, bob!]);
    const second = await browser.context.newPage();
    await second.goto(`${server.url}/settings`);
    await first.getByRole('link', { name: 'Settings' }).click();
    await status(second).filter({ hasText: 'Off: nothing is sent to a relay.' }).waitFor();

    await toggle(first).click();
    await status(first)
      .filter({ hasText: /; the relay has your current watch list\.$/ })
      .waitFor();
    // The tab that was open all along reads it on, without a reload.
    await status(second)
      .filter({ hasText: /^On, through / })
      .waitFor();
    expect(await toggle(second).isChecked()).toBe(true);
    expect(relay.devices.size).toBe(1);
    const [id] = [...relay.devices.keys()];

    // Off from that tab: the device the first tab registered is the one deleted, and the first tab reads it off.
    await toggle(second).click();
    await status(second).filter({ hasText: 'Off: nothing is sent to a relay.' }).waitFor();
    expect(relay.requests.filter((request) => request.method === 'DELETE').map((request) => request.path)).toEqual([
      `/v1/devices/${id}`,
    ]);
    await status(first).filter({ hasText: 'Off: nothing is sent to a relay.' }).waitFor();

    // On again from the second tab: one device, under one identity, shown on in both.
    await toggle(second).click();
    await status(second)
      .filter({ hasText: /; the relay has your current watch list\.$/ })
      .waitFor();
    await status(first)
      .filter({ hasText: /^On, through / })
      .waitFor();
    expect(relay.devices.size).toBe(1);
    expect(watchesAtRelay([...relay.devices.keys()][0]!).sort()).toEqual([alice!.address, bob!.address].sort());
    await second.close();
  });

  it('after the relay forgot the device and took it again, the catch-up reads the new log from its start', async () => {
    const bob = people()[1]!;
    const [id] = [...relay.devices.keys()];
    const told = ['1', '2', '3'].map((cursor) => relayAlert(bob.address, `0x${'0'.repeat(63)}${cursor}`, cursor));
    relay.feed.push(...told);
    await first.reload();
    await expect.poll(async () => (await storedRelaySettings(first))?.cursor).toBe('3');

    // Its push service answered 410: the relay deleted the device and its log. The next start registers it again.
    relay.forget(id!);
    await first.reload();
    await expect.poll(() => relay.devices.has(id!)).toBe(true);
    await expect.poll(async () => (await storedRelaySettings(first))?.cursor).toBe('0');

    // The new log's first alert, missed while the app was closed, is caught up at the next start.
    const fresh = relayAlert(bob.address, `0x${'0'.repeat(62)}a1`, '1');
    relay.feed.push(fresh);
    await first.reload();
    await expect.poll(async () => (await alertLog(first)).some((entry) => entry.id === fresh.id)).toBe(true);
    await first.close();
  });

  it('a watch list that cannot be read is never sent to the relay as an empty list', async () => {
    const [id] = [...relay.devices.keys()];
    const watched = watchesAtRelay(id!);
    expect(watched).toHaveLength(2);
    const sentBefore = relay.requests.length;
    const page = await browser.context.newPage();
    // The watch list's database fails to open; the other databases (the relay settings among them) read as usual.
    await page.addInitScript(() => {
      const open = IDBFactory.prototype.open;
      IDBFactory.prototype.open = function (name: string, version?: number) {
        if (name === 'stacks-watch:watchlist') throw new DOMException('The disk is not readable.', 'UnknownError');
        return open.call(this, name, version);
      };
    });
    await page.goto(`${server.url}/settings`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'Your watch list could not be read on this device, so nothing was sent to the relay' })
      .waitFor();
    expect(relay.requests.slice(sentBefore).filter((request) => request.method === 'PUT')).toEqual([]);
    expect(watchesAtRelay(id!)).toEqual(watched);
    await page.close();
  });
});
