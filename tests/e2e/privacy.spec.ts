/**
 * "Who knows what", checked against the network: every request the page and its service worker make, and every
 * WebSocket frame, is recorded by the browser (Playwright's network events) during a full visit — addresses added
 * (one by its BNS name), an address page with tokens, Settings, the relay turned on — and the screen must list
 * exactly the hosts contacted other than the app's own, and under each exactly the watched addresses that went to it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { serveApp, type AppServer } from '../../scripts/serve-app.ts';
import { waitForLive } from './support/alerts.ts';
import { axeViolations, waitForServiceWorkerControl } from './support/app-page.ts';
import { launchBrowser, type TestBrowser } from './support/chromium.ts';
import { layoutReport, screenshot, SCREENSHOTS } from './support/layout.ts';
import { startRelayStandIn, type RelayStandIn } from './support/relay-stand-in.ts';
import { recordTraffic, type Sent } from './support/traffic.ts';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** Where the push service would be: the subscription names it; nothing in the app may contact it. */
const PUSH_SERVICE = 'localhost:8990';
/** Headless Chromium reaches no real push service: the subscription is made up, at PUSH_SERVICE. */
const FAKE_PUSH = `(() => {
  const endpoint = 'http://${PUSH_SERVICE}/notify/privacy-test';
  const KEY = 'test:push-on';
  const subscription = () => ({
    endpoint,
    expirationTime: null,
    toJSON: () => ({ endpoint, expirationTime: null, keys: {
      p256dh: 'BKd0w5ZyG1sFrCp1GC0T3Sgmwnt1j5XUpwv1n5nbvuR4m0I7pS6lQ2S0h3uWk-8-V0X_9qX1V1rQe5N7kq0oTQk',
      auth: 'f0xSk8mXUy1YBl0ZqJ5Hnw',
    } }),
    unsubscribe: async () => { localStorage.removeItem(KEY); return true; },
  });
  PushManager.prototype.subscribe = async function () { localStorage.setItem(KEY, '1'); return subscription(); };
  PushManager.prototype.getSubscription = async function () { return localStorage.getItem(KEY) ? subscription() : null; };
})();`;

let relay: RelayStandIn;
let devnet: RunningDevnet;
let server: AppServer;
let browser: TestBrowser;

beforeAll(async () => {
  relay = await startRelayStandIn();
  devnet = await startDevnet({ port: 0, blockMs: null });
  server = await serveApp({ runtimeConfig: { devnet: { url: devnet.url }, relay: { url: relay.url } } });
  relay.allowOrigin(server.url);
  browser = await launchBrowser({ shell: true });
  await browser.context.addInitScript(FAKE_PUSH);
  await browser.context.grantPermissions(['notifications'], { origin: server.url });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await devnet?.close();
  await relay?.close();
});

/** The hosts on the screen, and under each the addresses listed (their full principal and the label shown). */
type Screen = Map<string, Map<string, string>>;

async function readScreen(page: Page): Promise<Screen> {
  const cards = await page.locator('.host-card:not(.push-service)').evaluateAll((sections) =>
    sections.map((section) => ({
      host: section.querySelector('h2')?.textContent ?? '',
      addresses: [...section.querySelectorAll('.host-address')].map((item) => ({
        principal: item.querySelector('.principal')?.getAttribute('title') ?? '',
        label: item.querySelector('strong')?.textContent ?? '',
      })),
    })),
  );
  return new Map(
    cards.map(({ host, addresses }) => [host, new Map(addresses.map((item) => [item.principal, item.label]))]),
  );
}

/** The oracle: for each host but the app's own, the watched principals that appear anywhere in what went to it. */
function toldByTraffic(sent: readonly Sent[], appHost: string, watched: readonly string[]): Map<string, Set<string>> {
  const byHost = new Map<string, Set<string>>();
  for (const item of sent) {
    if (item.host === appHost) continue;
    const named = byHost.get(item.host) ?? new Set<string>();
    byHost.set(item.host, named);
    for (const principal of watched) if (item.text.includes(principal)) named.add(principal);
  }
  return byHost;
}

/** What `outer` is missing of `inner`: hosts, and addresses under a host (empty when `outer` holds all of it). */
function missing(
  inner: ReadonlyMap<string, ReadonlySet<string> | ReadonlyMap<string, string>>,
  outer: ReadonlyMap<string, ReadonlySet<string> | ReadonlyMap<string, string>>,
): string[] {
  return [...inner].flatMap(([host, named]) => {
    const there = outer.get(host);
    if (!there) return [`host ${host}`];
    return [...named.keys()].filter((principal) => !there.has(principal)).map((principal) => `${principal} at ${host}`);
  });
}

describe('who knows what', () => {
  it('lists every host the browser contacted, and each watched address it was told, as the traffic shows', async () => {
    const traffic = recordTraffic(browser.context);
    const page = await browser.context.newPage();
    traffic.watch(page);
    await page.goto(server.url);
    await waitForServiceWorkerControl(page);
    const [alice, bob, carol] = devnet.node.chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
    ];
    const labels = new Map([
      [alice, 'Alice'],
      [bob, 'Bob'],
      [carol, 'Carol'],
    ]);
    for (const [address, label] of [
      [alice, 'Alice'],
      [bob, 'Bob'],
      ['carol.btc', 'Carol'],
    ] as const) {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(address);
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.getByRole('listitem').filter({ hasText: label }).waitFor();
    }
    await waitForLive(page);

    // An address page with tokens (their names and decimals come from the node's token metadata).
    await page.getByRole('listitem').filter({ hasText: 'Alice' }).getByRole('link').first().click();
    await page
      .getByText(/ WGOLD$/)
      .first()
      .waitFor();
    // Settings, and alerts when the app is closed: the relay is sent the watch list.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('switch', { name: 'Send me alerts when the app is closed' }).click();
    await page.getByText(/On, through .*; the relay has your current watch list\./).waitFor();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: `${SCREENSHOTS}who-knows-what-settings-390x844-full.png`, fullPage: true });
    await page.getByRole('link', { name: 'Who knows what' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Who knows what' }).waitFor();

    const appHost = new URL(server.url).host;
    const devnetHost = new URL(devnet.url).host;
    const relayHost = new URL(relay.url).host;
    const watched = [...labels.keys()];
    const before = toldByTraffic(traffic.sent, appHost, watched);
    // The screen catches up with what was sent (the record is written every 2 s; the screen follows it).
    await expect.poll(async () => missing(before, await readScreen(page))).toEqual([]);
    const screen = await readScreen(page);
    const after = toldByTraffic(traffic.sent, appHost, watched);

    // The traffic itself: the devnet (node, BNS, tokens, demo accounts) and the relay, and nothing else; the
    // service worker's own requests (its precache) went to the app's origin only.
    expect([...after.keys()].sort()).toEqual([devnetHost, relayHost].sort());
    expect(traffic.sent.some((item) => item.fromServiceWorker)).toBe(true);
    expect(traffic.sent.filter((item) => item.fromServiceWorker && item.host !== appHost)).toEqual([]);
    expect(traffic.sent.some((item) => item.host === PUSH_SERVICE)).toBe(false);
    expect(
      traffic.sent.some((item) => item.kind === 'frame' && item.text.includes(`address-transaction:${alice}`)),
    ).toBe(true);
    expect(before.get(devnetHost)).toEqual(new Set(watched));
    expect(before.get(relayHost)).toEqual(new Set(watched));

    // The screen: every host contacted, and under each every watched address that went to it, labelled as watched;
    // nothing it was not told (what the screen shows was sent by the time the traffic was read again).
    expect(missing(before, screen)).toEqual([]);
    expect(missing(screen, after)).toEqual([]);
    for (const named of screen.values())
      for (const [principal, label] of named) expect(label).toBe(labels.get(principal));
    const node = page.getByRole('region', { name: devnetHost });
    await node
      .getByText(`The node at ${devnetHost} was asked about these 3 addresses; it also sees your IP address`)
      .waitFor();
    await node.getByText('Testnet node · Local devnet').waitFor();
    expect(await node.textContent()).toMatch(/Used for balances and activity, live updates .*token names .*BNS names/);
    await page
      .getByRole('region', { name: relayHost })
      .getByText(`The relay at ${relayHost} was sent these 3 addresses, with their alert rules`)
      .waitFor();
    await page
      .getByRole('region', { name: PUSH_SERVICE })
      .getByText(/Stacks Watch never contacts it/)
      .waitFor();
    await page
      .getByText(/^Not listed: the app’s own files and settings, fetched from this app’s own site/)
      .filter({ hasText: appHost })
      .waitFor();

    expect(await axeViolations(page, AXE_SOURCE)).toEqual([]);
    await page.setViewportSize({ width: 320, height: 640 });
    expect((await layoutReport(page)).overflow).toBe(0);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const [width, height] of [
        [390, 844],
        [1366, 900],
      ] as const) {
        await page.setViewportSize({ width, height });
        await screenshot(page, `who-knows-what-${width}x${height}-${scheme}`);
        await page.screenshot({
          path: `${SCREENSHOTS}who-knows-what-${width}x${height}-${scheme}-full.png`,
          fullPage: true,
        });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });

    // The record survives a reload: the same hosts and addresses, at least.
    await page.reload();
    await page.locator('.host-card').first().waitFor();
    await expect.poll(async () => missing(before, await readScreen(page))).toEqual([]);

    // Cleared, it forgets everything before; what is sent from then on is recorded afresh.
    const clearedAt = await page.evaluate(() => Date.now());
    await page.getByRole('button', { name: 'Clear this record' }).click();
    await page.getByRole('button', { name: 'Clear it' }).click();
    await page.getByText('Cleared. Requests from now on are recorded afresh.').waitFor();
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Who knows what' }).waitFor();
    const kept = await storedRecord(page);
    // A host only tried so far (the feed's attempt before its handshake is answered) has no contact yet.
    const since = (sighting: { first: number } | null | undefined) => (sighting?.first ?? Infinity) >= clearedAt;
    expect(kept.every((record) => since(record.contact) && since(record.unanswered))).toBe(true);
    await page.close();
  });
});

/** The record as stored, read straight from IndexedDB. */
function storedRecord(
  page: Page,
): Promise<{ origin: string; contact: { first: number } | null; unanswered?: { first: number } }[]> {
  return page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('stacks-watch:privacy');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('by-host')) { db.close(); resolve([]); return; }
      const request = db.transaction('by-host').objectStore('by-host').getAll();
      request.onsuccess = () => { db.close(); resolve(request.result.map((stored) => stored.record)); };
      request.onerror = () => reject(request.error);
    };
  })`);
}
