import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control, notificationsShown, openWatching, shownPhase, waitForLive } from './support/alerts.ts';
import { openWorld, type World } from './support/harness.ts';
import { screenshot } from './support/layout.ts';
import { trayOnScreen } from './support/tray.ts';
import { trayProblems } from '../monitor/truth/tray.ts';

const SIZES = [
  { width: 320, height: 700 },
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
] as const;

async function inWorld(scenario: (world: World) => Promise<void>): Promise<void> {
  const world = await openWorld({ blockMs: null });
  try {
    await scenario(world);
  } finally {
    await world.close();
  }
}

const people = (world: World) => world.devnet.node.chain.accounts.people;

/** A summary on screen as the service worker keeps it: each alert's line with the state it tells. */
interface SummaryOnScreen {
  readonly title: string;
  readonly body: string;
  readonly ids: readonly string[];
  readonly lines: readonly { id: string; phase: string; title: string }[];
}

const summariesShown = (page: Page): Promise<SummaryOnScreen[]> =>
  page.evaluate(`navigator.serviceWorker.ready
    .then((registration) => registration.getNotifications())
    .then((list) => list.filter((n) => n.data?.summary).map((n) => ({
      title: n.title, body: n.body, ids: n.data.ids, lines: n.data.summary.lines ?? [],
    })))`);

describe('the notification tray tells each alert once, in its state now', () => {
  it('a confirmation after a summary: the summary on screen says confirmed, with no new notification', () =>
    inWorld(async (world) => {
      const [alice, bob] = people(world);
      const page = await openWatching(world.browser.context, world.server.url, [bob!]);
      // Six transfers to Bob within a minute: from the fourth, the alerts fold into a summary.
      const txIds: string[] = [];
      for (let n = 1; n <= 6; n++) {
        const { tx_id } = await control(world.devnet, '/devnet/transfer', {
          sender: alice!.address,
          recipient: bob!.address,
          amount: String(n * 1_000_000),
        });
        txIds.push(String(tx_id));
      }
      const ids = txIds.map((txId) => `testnet:${bob!.address}:${txId}`);
      const shownIn = async (phase: string) => {
        const log = await alertLog(page);
        return ids.every((id) => log.some((entry) => entry.id === id && entry.phase === phase && !entry.undelivered));
      };
      await expect.poll(() => shownIn('pending')).toBe(true);
      const before = await summariesShown(page);
      expect(before.flatMap((summary) => summary.lines.map((line) => line.phase))).toContain('pending');
      const notificationsBefore = (await notificationsShown(page)).length;

      await control(world.devnet, '/devnet/mine');
      await expect.poll(() => shownIn('confirmed')).toBe(true);
      // The ledger says every transfer is mined: nothing on screen may still say pending.
      for (const txId of txIds) expect(world.devnet.node.chain.tx(txId)?.state.kind).toBe('confirmed');
      const shown = await notificationsShown(page);
      expect(shown.filter((notification) => /pending/.test(`${notification.title}\n${notification.body}`))).toEqual([]);
      const after = await summariesShown(page);
      expect(after.length).toBeGreaterThan(0);
      for (const summary of after) {
        expect(summary.lines.every((line) => line.phase === 'confirmed')).toBe(true);
        expect(summary.title).toBe(`${summary.ids.length} new transactions on Bob`);
      }
      // One alert, one notification; the retold summary replaced itself rather than adding one.
      const carriers = ids.map((id) => shown.filter((notification) => notification.ids.includes(id)).length);
      expect(carriers).toEqual(ids.map(() => 1));
      expect(shown.length).toBe(notificationsBefore);
      const log = await alertLog(page);
      expect(trayProblems(await trayOnScreen(page), log, (entry) => entry.id)).toEqual([]);
    }));

  it('a single catch-up after the app was closed reads "While you were away", in the toast (screenshots); not after a few seconds away', () =>
    inWorld(async (world) => {
      const [alice, bob] = people(world);
      const { context } = world.browser;
      await context.grantPermissions(['notifications'], { origin: world.server.url });
      let page = await context.newPage();
      await page.goto(world.server.url);
      await waitForServiceWorkerControl(page);
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(bob!.address);
      await page.getByLabel('Label').fill('Bob');
      await page.getByRole('button', { name: 'Watch' }).click();
      await waitForLive(page);
      // A first payment while the app is open: told live (and what the alerts have seen is stored).
      const first = await control(world.devnet, '/devnet/transfer', {
        sender: alice!.address,
        recipient: bob!.address,
        amount: '1000000',
      });
      await control(world.devnet, '/devnet/mine');
      const firstId = `testnet:${bob!.address}:${String(first['tx_id'])}`;
      await expect.poll(() => shownPhase(page, firstId)).toBe('confirmed');
      await page.close();

      // While the app is closed, Alice pays Bob once.
      const { tx_id } = await control(world.devnet, '/devnet/transfer', {
        sender: alice!.address,
        recipient: bob!.address,
        amount: '2500000',
      });
      await control(world.devnet, '/devnet/mine');
      expect(world.devnet.node.chain.tx(String(tx_id))?.state.kind).toBe('confirmed');

      page = await context.newPage();
      // Closed ten minutes ago, as far as the app can tell (a reload a few seconds after is no absence).
      await page.addInitScript(() => {
        if (sessionStorage.getItem('aged')) return;
        sessionStorage.setItem('aged', 'yes');
        localStorage.setItem('stacks-watch:last-seen', String(Date.now() - 600_000));
      });
      await page.setViewportSize(SIZES[1]);
      await page.goto(world.server.url);
      const toast = page.locator('.toast');
      const id = `testnet:${bob!.address}:${String(tx_id)}`;
      await expect.poll(() => shownPhase(page, id)).toBe('confirmed');
      await toast.hover();
      await expect.poll(() => toast.locator('strong').textContent()).toBe('While you were away: Received 2.50 STX');
      // The inbox keeps the alert's own words, as every other alert's.
      expect((await alertLog(page)).find((entry) => entry.id === id)?.title).toBe('Received 2.50 STX');
      for (const scheme of ['light', 'dark'] as const)
        for (const size of SIZES) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize(size);
          await toast.hover();
          await screenshot(page, `tray-away-toast-${size.width}-${scheme}`);
        }
      expect(await toast.locator('strong').textContent()).toBe('While you were away: Received 2.50 STX');

      // Left for a few seconds (another page in the same tab, a reload): a payment meanwhile is caught up on return,
      // and it is no absence.
      await page.goto('about:blank');
      const { tx_id: soon } = await control(world.devnet, '/devnet/transfer', {
        sender: alice!.address,
        recipient: bob!.address,
        amount: '1250000',
      });
      await control(world.devnet, '/devnet/mine');
      await page.goto(world.server.url);
      await expect.poll(() => shownPhase(page, `testnet:${bob!.address}:${String(soon)}`)).toBe('confirmed');
      await toast.hover();
      await expect.poll(() => toast.locator('strong').textContent()).toBe('Received 1.25 STX');
    }));
});

describe('the service worker owns the tray: it tells what the inbox holds, where each alert was placed', () => {
  it('shows each stored alert once, a summary as one, however often a tab asks; refuses a malformed question', () =>
    inWorld(async (world) => {
      await world.browser.context.grantPermissions(['notifications'], { origin: world.server.url });
      const page = await world.browser.context.newPage();
      await page.goto(world.server.url);
      await waitForServiceWorkerControl(page);
      const entry = (n: number, title: string, tag: string) => ({
        id: `testnet:SP1:0x0${n}`,
        network: 'testnet',
        principal: 'SP1',
        txId: `0x0${n}`,
        phase: 'confirmed',
        title,
        body: 'Bob',
        path: '/',
        firstAt: n,
        at: n,
        read: false,
        deliveries: [],
        undelivered: true,
        tray: { tag },
      });
      const stored = [
        entry(1, 'Received 5.00 STX', 'tx:testnet:SP1:0x01'),
        entry(2, 'Received 1.00 STX', 'summary:testnet:SP1'),
        entry(3, 'Received 2.00 STX', 'summary:testnet:SP1'),
      ];
      const tell = (message: object) =>
        page.evaluate(
          ({ message, stored }) =>
            new Promise<IDBDatabase>((resolve, reject) => {
              // Stored as the page's inbox stores them (idb-keyval: one store, keyed by id), then asked about.
              const request = indexedDB.open('stacks-watch:inbox');
              request.onupgradeneeded = () => request.result.createObjectStore('alerts');
              request.onsuccess = () => resolve(request.result);
              request.onerror = () => reject(request.error);
            })
              .then(
                (db) =>
                  new Promise<void>((resolve, reject) => {
                    const transaction = db.transaction('alerts', 'readwrite');
                    for (const record of stored) transaction.objectStore('alerts').put(record, record.id);
                    transaction.oncomplete = () => resolve(db.close());
                    transaction.onerror = () => reject(transaction.error);
                  }),
              )
              .then(
                () =>
                  new Promise<unknown>((resolve) => {
                    const channel = new MessageChannel();
                    channel.port1.onmessage = (event) => resolve(event.data);
                    navigator.serviceWorker.controller!.postMessage(message, [channel.port2]);
                  }),
              ),
          { message, stored },
        );
      const onTray = () =>
        page.evaluate(`navigator.serviceWorker.ready
          .then((registration) => registration.getNotifications())
          .then((list) => list.map((n) => ({ tag: n.tag, title: n.title, body: n.body, timestamp: n.timestamp })))`) as Promise<
          { tag: string; title: string; body: string; timestamp: number }[]
        >;
      const ids = stored.map(({ id }) => id);
      const answer = await tell({ type: 'TELL', ids, whileOpen: 'system' });
      expect(new Map((answer as { via: [string, string][] }).via)).toEqual(
        new Map([
          [ids[0], 'notification'],
          [ids[1], 'summary'],
          [ids[2], 'summary'],
        ]),
      );
      const shown = (await onTray()).toSorted((a, b) => a.tag.localeCompare(b.tag));
      expect(shown.map(({ tag, title, body }) => [tag, title, body])).toEqual([
        ['summary:testnet:SP1', '2 new transactions on Bob', 'Received 2.00 STX\nReceived 1.00 STX'],
        ['tx:testnet:SP1:0x01', 'Received 5.00 STX', 'Bob'],
      ]);
      // A tab taking over asks again about what a closed tab never recorded: the tray already tells it.
      const again = await tell({ type: 'TELL', ids, whileOpen: 'system' });
      expect((again as { via: [string, string][] }).via).toHaveLength(3);
      expect((await onTray()).toSorted((a, b) => a.tag.localeCompare(b.tag))).toEqual(shown);
      expect(await tell({ type: 'TELL', ids: [42] })).toEqual({ error: 'not a list of alert ids' });
    }));
});

describe('a transfer between two watched addresses is told as one', () => {
  it('in the system notification, pending then mined; the inbox stores each address its own entry', () =>
    inWorld(async (world) => {
      const [alice, bob] = people(world);
      const page = await openWatching(world.browser.context, world.server.url, [alice!, bob!]);
      const { tx_id } = await control(world.devnet, '/devnet/transfer', {
        sender: alice!.address,
        recipient: bob!.address,
        amount: '4300000',
        memo: 'rent',
      });
      const txId = String(tx_id);
      const ids = [`testnet:${alice!.address}:${txId}`, `testnet:${bob!.address}:${txId}`].sort();
      const told = async () =>
        (await notificationsShown(page)).map((notification) => [notification.title, notification.ids.toSorted()]);
      await expect.poll(told).toEqual([['4.30 STX · Alice → Bob — pending', ids]]);
      await control(world.devnet, '/devnet/mine');
      await expect.poll(told).toEqual([['4.30 STX · Alice → Bob', ids]]);
      expect((await notificationsShown(page))[0]!.body).toBe('“rent”\nFee 0.0003 STX, paid by Alice');
      // Each address's page and filter still list its own side, in its own words (the pair reads mined once one side
      // is: the other's entry may follow a moment later).
      const titles = async () => {
        const log = await alertLog(page);
        return ids.map((id) => log.find((entry) => entry.id === id)?.title);
      };
      await expect.poll(titles).toEqual(
        [
          [`testnet:${alice!.address}:${txId}`, 'Sent 4.30 STX · fee 0.0003 STX'],
          [`testnet:${bob!.address}:${txId}`, 'Received 4.30 STX'],
        ]
          .sort(([a], [b]) => a!.localeCompare(b!))
          .map(([, title]) => title),
      );
    }));

  it('a call of a watched contract by a watched address: one notification pending then mined, one inbox row', () =>
    inWorld(async (world) => {
      const [alice] = people(world);
      const { vault } = world.devnet.node.chain.accounts;
      const page = await openWatching(world.browser.context, world.server.url, [
        alice!,
        { address: vault.address, label: 'Vault' },
      ]);
      const { tx_id } = await control(world.devnet, '/devnet/vault', {
        sender: alice!.address,
        action: 'withdraw',
        amount: '84000000',
      });
      const txId = String(tx_id);
      const ids = [`testnet:${alice!.address}:${txId}`, `testnet:${vault.address}:${txId}`].sort();
      const told = async () =>
        (await notificationsShown(page)).map((notification) => [notification.title, notification.ids.toSorted()]);
      await expect.poll(told).toEqual([['Alice → demo-vault.withdraw — pending', ids]]);
      const row = page.locator(`.inbox-entry[data-alert*="${txId}"]`);
      await page.getByRole('link', { name: /^Inbox/ }).click();
      await expect
        .poll(() => row.locator('strong').allTextContents())
        .toEqual(['Alice → demo-vault.withdraw — pending']);
      await control(world.devnet, '/devnet/mine');
      // The ledger: the vault paid Alice 84 STX.
      expect(world.devnet.node.chain.tx(txId)?.state.kind).toBe('confirmed');
      await expect.poll(told).toEqual([['84.00 STX · Vault → Alice', ids]]);
      expect((await notificationsShown(page))[0]!.body).toMatch(
        /^via demo-vault\.withdraw\nFee [\d.]+ STX, paid by Alice$/,
      );
      await expect.poll(() => row.locator('strong').allTextContents()).toEqual(['84.00 STX · Vault → Alice']);
      for (const scheme of ['light', 'dark'] as const)
        for (const size of SIZES) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize(size);
          await screenshot(page, `inbox-call-${size.width}-${scheme}`);
        }
      const log = await alertLog(page);
      expect(trayProblems(await trayOnScreen(page), log, (entry) => entry.id)).toEqual([]);
    }));

  it('in the toast (screenshots)', () =>
    inWorld(async (world) => {
      const [alice, bob] = people(world);
      const { context } = world.browser;
      await context.grantPermissions(['notifications'], { origin: world.server.url });
      const page = await context.newPage();
      await page.setViewportSize(SIZES[1]);
      await page.goto(world.server.url);
      await waitForServiceWorkerControl(page);
      for (const person of [alice!, bob!]) {
        await page.getByRole('button', { name: 'Add address' }).click();
        await page.getByLabel('Address').fill(person.address);
        await page.getByLabel('Label').fill(person.label);
        await page.getByRole('button', { name: 'Watch' }).click();
        await page.getByRole('listitem').filter({ hasText: person.label }).waitFor();
      }
      await waitForLive(page);
      await control(world.devnet, '/devnet/transfer', {
        sender: alice!.address,
        recipient: bob!.address,
        amount: '4300000',
        memo: 'rent',
      });
      const toast = page.locator('.toast');
      await expect.poll(() => toast.locator('strong').textContent()).toBe('4.30 STX · Alice → Bob — pending');
      await toast.hover();
      for (const scheme of ['light', 'dark'] as const)
        for (const size of SIZES) {
          await page.emulateMedia({ colorScheme: scheme });
          await page.setViewportSize(size);
          await toast.hover();
          await screenshot(page, `tray-pair-toast-${size.width}-${scheme}`);
        }
      expect(await toast.locator('strong').textContent()).toBe('4.30 STX · Alice → Bob — pending');
    }));
});
