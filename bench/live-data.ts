import 'fake-indexeddb/auto';
import { c32address } from 'c32check';
import type { Page } from 'playwright-core';
import { SocketIoFeed } from '../src/chain/feed.ts';
import type { NodeConfig } from '../src/chain/networks.ts';
import { StacksRestClient } from '../src/chain/rest-client.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../src/chain/scheduler.ts';
import { NetworkMonitor } from '../src/monitor/network-monitor.ts';
import { SnapshotBook } from '../src/store/snapshot-book.ts';
import { startDevnet } from '../mocks/devnet/server.ts';
import { serveApp } from '../scripts/serve-app.ts';
import { launchBrowser } from '../tests/e2e/support/chromium.ts';
import { control, quantile } from './support.ts';

/** Waits until the page's connection indicator says the network is live and no sync is running. */
async function settled(page: Page): Promise<void> {
  await page.locator('.connection-live').waitFor({ timeout: 60_000 });
  await page.waitForTimeout(500);
  await page.locator('.connection-live').waitFor({ timeout: 60_000 });
}

export interface LiveDataFigures {
  readonly addresses: number;
  /** Principal REST requests per address for a first sync, a warm reopen (and how many of those were 304), and while connected. */
  readonly requestsPerAddress: { cold: number; warm: number; warm304Share: number; connectedPolling: number };
  /** While connected, balance reads of addresses whose stacking lock ended meanwhile (nothing on the feed says so). */
  readonly unlockReads: number;
  /** `block` emitted by the node → the confirmed transaction in the page's DOM, over the runs. */
  readonly eventToScreenMs: { runs: number; p50: number; p95: number };
}

/** In Chromium against the devnet, as a user: the app's request costs and how fast an event reaches the screen. */
export async function measureLiveData(runs: number): Promise<LiveDataFigures> {
  const devnet = await startDevnet({ port: 0, blockMs: null });
  const app = await serveApp({ runtimeConfig: { devnet: { url: devnet.url } } });
  const browser = await launchBrowser();
  try {
    const { people, treasury } = devnet.node.chain.accounts;
    const strangers = Array.from({ length: 5 }, (_, n) => c32address(26, `e${n.toString(16).padStart(39, '0')}`));
    const watched = [...people.map((person) => person.address), treasury.address, ...strangers];
    for (const [i, recipient] of watched.entries())
      await control(devnet, '/devnet/transfer', { sender: people[i % 4]!.address, recipient, amount: '1000' });
    await control(devnet, '/devnet/mine', {});

    const principalRequests: { path: string; status: number }[] = [];
    devnet.node.observe((request, response) => {
      if (/\/(principals|address)\//.test(request.url.pathname))
        principalRequests.push({ path: request.url.pathname, status: response.status });
    });
    const page = await browser.context.newPage();
    await page.goto(app.url);
    // Import lives in Settings; the list is on the home screen.
    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByLabel('Import…').setInputFiles({
      name: 'watch.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(watched)),
    });
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    // A function, not a string: the app's CSP refuses the eval a string predicate needs.
    await page.waitForFunction((n) => document.querySelectorAll('.stx-available').length === n, watched.length, {
      timeout: 60_000,
    });
    await settled(page);
    const cold = principalRequests.length / watched.length;

    principalRequests.length = 0;
    await page.reload();
    await settled(page);
    const warm = principalRequests.length / watched.length;
    const warm304Share =
      principalRequests.filter((request) => request.status === 304).length / Math.max(1, principalRequests.length);

    principalRequests.length = 0;
    const alice = people[0]!.address;
    // In the app, as a user clicks: a full page load would reconnect and reconcile.
    await page.locator(`a[href="/address/${alice}"]`).click();
    await page.locator('.activity-row').first().waitFor();
    const holdings = () =>
      principalRequests.filter((request) => !/balances\/(ft|nft)|balance-changes/.test(request.path));
    const ledger = devnet.node.chain.state.stx;
    const lockedBefore = watched.filter((address) => (ledger.get(address)?.locked ?? 0n) > 0n);
    const blockTimes = new Map<string, number>();
    const latencies: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { tx_id } = await control(devnet, '/devnet/transfer', {
        sender: people[1 + (i % 3)]!.address,
        recipient: alice,
        amount: String(1000 + i),
      });
      await page.locator(`[data-tx="${tx_id}"]`).waitFor();
      const seen = page.evaluate(`new Promise((resolve) => {
        const selector = '[data-tx="${tx_id}"].activity-success';
        if (document.querySelector(selector)) return resolve(Date.now());
        const observer = new MutationObserver(() => {
          if (document.querySelector(selector)) { observer.disconnect(); resolve(Date.now()); }
        });
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
      })`) as Promise<number>;
      const minedAt = Date.now();
      await control(devnet, '/devnet/mine', {});
      blockTimes.set(tx_id!, minedAt);
      latencies.push((await seen) - minedAt);
    }
    const unlocked = lockedBefore.filter((address) => ledger.get(address)?.locked === 0n);
    const isUnlockRead = (path: string) => /balances\/stx$|\/stx$/.test(path) && unlocked.some((a) => path.includes(a));
    const connected = holdings();
    return {
      addresses: watched.length,
      unlockReads: connected.filter((request) => isUnlockRead(request.path)).length,
      requestsPerAddress: {
        cold,
        warm,
        warm304Share: Math.round(warm304Share * 100) / 100,
        connectedPolling: connected.filter((request) => !isUnlockRead(request.path)).length,
      },
      eventToScreenMs: { runs, p50: quantile(latencies, 0.5), p95: quantile(latencies, 0.95) },
    };
  } finally {
    await browser.close();
    await app.close();
    await devnet.close();
  }
}

export interface BudgetedSyncFigures {
  readonly addresses: number;
  readonly budgetPerMinute: number;
  readonly clientLimitPerMinute: number;
  readonly seconds: number;
  readonly requests: number;
  readonly rateLimited: number;
}

/** The engine syncing `addresses` addresses on a node that enforces a budget of `budgetPerMinute` requests. */
export async function measureBudgetedSync(addresses: number, budgetPerMinute: number): Promise<BudgetedSyncFigures> {
  const devnet = await startDevnet({ port: 0, blockMs: null });
  devnet.node.faults.faults.budgetPerMinute = budgetPerMinute;
  let requests = 0;
  let rateLimited = 0;
  devnet.node.observe((_request, response) => {
    requests += 1;
    if (response.status === 429) rateLimited += 1;
  });
  // A little under the budget: the node counts arrivals, the client counts departures.
  const clientLimit = budgetPerMinute - 10;
  const limits = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: clientLimit };
  const node: NodeConfig = { network: 'testnet', url: devnet.url, name: 'devnet', apiKey: null, limits };
  const book = new SnapshotBook();
  const monitor = new NetworkMonitor({
    node,
    rest: new StacksRestClient(node, new HostScheduler(limits)),
    book,
    openFeed: (handlers) => new SocketIoFeed(devnet.url, handlers, { transports: ['websocket'] }),
  });
  const principals = Array.from({ length: addresses }, (_, n) =>
    c32address(26, `f${n.toString(16).padStart(39, '0')}`),
  );
  const started = performance.now();
  try {
    monitor.start(principals);
    await new Promise<void>((resolve) => {
      const check = () => principals.every((principal) => book.get(principal)?.syncedAt) && resolve();
      book.changes.subscribe(check);
    });
    return {
      addresses,
      budgetPerMinute,
      clientLimitPerMinute: clientLimit,
      seconds: Math.round((performance.now() - started) / 100) / 10,
      requests,
      rateLimited,
    };
  } finally {
    monitor.stop();
    await devnet.close();
  }
}
