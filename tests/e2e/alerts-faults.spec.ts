import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import type { World } from './support/harness.ts';
import { alertLog, control, notificationsShown, openWatching, shownPhase } from './support/alerts.ts';
import { describeFaultRuns, inWorld, peopleOf } from './support/fault-runs.ts';
import { screenshot } from './support/layout.ts';

// Each fault run at 120 transfers here (the drops, the takeover, the reload and the 429s each fall inside them); 500 in
// `npm run soak` (tests/soak/alerts-faults.spec.ts), where the volume itself is the point.
describeFaultRuns({ transfers: 120, drops: 8 });

describe('alerts: re-orgs and clicks', () => {
  it('a re-org that takes an alerted transfer away takes its confirmation back on screen, then confirms it when mined again', () =>
    inWorld(async (world) => {
      const chain = world.devnet.node.chain;
      const opened: {
        page?: Page;
        txId?: string;
        firstBlock?: { readonly hash: string; readonly canonical: boolean };
      } = {};
      const entry = await followUp(
        world,
        'confirmed',
        async (page, id, txId) => {
          Object.assign(opened, { page, txId });
          await control(world.devnet, '/devnet/mine');
          await expect.poll(() => shownPhase(page, id)).toBe('confirmed');
          const mined = chain.tx(txId)?.state;
          // The block that holds it: the devnet marks it orphaned (no longer canonical) when a re-org takes it away.
          if (mined?.kind === 'confirmed') opened.firstBlock = mined.block;
          // Back in the mempool, as a real node puts it: the next block mines it again.
          await control(world.devnet, '/devnet/reorg', { depth: 1 });
          const told = async () =>
            (await alertLog(page)).find((candidate) => candidate.id === id)?.deliveries.map((d) => d.phase) ?? [];
          // Told as reverted; or, where the revert and the return to the mempool are heard in one batch, in its latest
          // state only: pending again replaces the confirmation on screen (inbox and tray agree, as the truth test
          // requires).
          await expect
            .poll(async () => (await told()).slice((await told()).indexOf('confirmed') + 1))
            .toEqual(expect.arrayContaining([expect.stringMatching(/^(reverted|pending)$/)]));
          // Either way the revert stays in sight until the transfer is mined again: the pair's one notification and
          // Bob's inbox entry say it, back in the mempool or not yet (never a plain "— pending").
          const reverted = /^Reverted(: | — back in the mempool: )/;
          await expect
            .poll(async () => (await alertLog(page)).find((candidate) => candidate.id === id)?.title)
            .toMatch(/^Reverted(: Received| — back in the mempool: Receiving) 2\.50 STX$/);
          await expect
            .poll(async () =>
              (await notificationsShown(page)).filter((shown) => shown.ids.includes(id)).map((shown) => shown.title),
            )
            .toEqual([expect.stringMatching(reverted)]);
          expect((await notificationsShown(page)).find((shown) => shown.ids.includes(id))?.title).toMatch(
            /2\.50 STX · Alice → Bob$/,
          );
          await control(world.devnet, '/devnet/mine');
        },
        // Mined again between two watched addresses: told as the pair once more (issue 24, item 8).
        '2.50 STX · Alice → Bob',
      );
      expect(entry.title).toBe('Received 2.50 STX');
      // Pending again may be shown between the two, or replaced by the confirmation before it was; either way the
      // confirmation on screen was taken back before the new one was told.
      const phases = entry.deliveries.map((delivery) => delivery.phase);
      expect(phases.slice(0, 2)).toEqual(['pending', 'confirmed']);
      expect(phases.at(-1)).toBe('confirmed');
      expect(phases.slice(2, -1).length).toBeGreaterThan(0);
      expect(phases.slice(2, -1).every((phase) => phase === 'reverted' || phase === 'pending')).toBe(true);
      expect(phases.filter((phase) => phase === 'reverted').length).toBeLessThanOrEqual(1);

      // The inbox keeps a trace of it: the row says where the transfer stands (Confirmed) and, quietly, that it was
      // taken back and mined again. The ledger is the judge: the block that first held it is orphaned, and another
      // block of the canonical chain holds it now.
      const { page, txId, firstBlock } = opened as Required<typeof opened>;
      const now = chain.tx(txId)?.state;
      const minedAgain =
        !firstBlock.canonical &&
        now?.kind === 'confirmed' &&
        now.block.hash !== firstBlock.hash &&
        chain.blockByHash(now.block.hash) === now.block;
      expect(minedAgain).toBe(true);
      await page.evaluate(() => document.querySelector<HTMLAnchorElement>('a[href="/inbox"]')!.click());
      const row = page.locator(`.inbox-entry[data-alert*="${txId}"]`);
      await expect.poll(() => row.locator('.inbox-state').first().textContent()).toBe('Confirmed');
      expect(await row.locator('.inbox-history').allTextContents()).toEqual(
        minedAgain ? ['Mined again after a re-org'] : [],
      );
      // Said to a screen reader with the row's further words.
      const described = await row
        .locator('.inbox-open')
        .evaluate((link) => document.getElementById(link.getAttribute('aria-describedby') ?? '')?.textContent ?? '');
      expect(described).toContain('Mined again after a re-org');
      for (const size of [
        { width: 390, height: 844 },
        { width: 1366, height: 900 },
      ]) {
        await page.setViewportSize(size);
        for (const scheme of ['light', 'dark'] as const) {
          await page.emulateMedia({ colorScheme: scheme });
          await screenshot(page, `inbox-mined-again-${scheme}-${size.width}x${size.height}`);
        }
      }
    }));

  it('a pending transfer replaced by a higher fee sends one "Fee raised" follow-up in place of its notification', () =>
    inWorld(async (world) => {
      // Both sides watched: the drop is told as one, in the pair's words; each address's entry keeps its own.
      let replacedBy = '';
      const opened: { page?: Page } = {};
      const entry = await followUp(
        world,
        'dropped',
        async (page, _id, txId) => {
          opened.page = page;
          const replaced = await control(world.devnet, '/devnet/drop', {
            tx_id: txId,
            status: 'dropped_replace_by_fee',
          });
          replacedBy = String(replaced['replaced_by']);
        },
        'Fee raised: 2.50 STX · Alice → Bob',
      );
      // Never told as a loss: the fee was raised, and the words name the transaction that took its place.
      // Bob did not raise it: to him the transfer was replaced (the one that replaced it is told as itself).
      expect(entry.title).toBe('Replaced: Receiving 2.50 STX');
      expect(entry.body).toContain(`Replaced by ${replacedBy.slice(0, 6)}…${replacedBy.slice(-4)}, the same nonce`);
      expect(entry.deliveries.map((delivery) => delivery.phase)).toEqual(['pending', 'dropped']);
      // Its replacement mined, the tray tells the payment as it stands: that one, and no "Fee raised" beside it.
      await control(world.devnet, '/devnet/mine');
      expect(world.devnet.node.chain.tx(replacedBy)?.state.kind).toBe('confirmed');
      await expect
        .poll(async () => (await notificationsShown(opened.page!)).map((notification) => notification.title))
        .toEqual(['2.50 STX · Alice → Bob']);
    }));

  it('clicking a notification lands on its address page and transaction: in the open window, or a new one if none', () =>
    inWorld(async (world) => {
      const [alice, bob] = peopleOf(world);
      const page = await openWatching(world.browser.context, world.server.url, [alice!, bob!]);
      await page.getByRole('link', { name: 'Settings' }).click();
      const pay = async (sender: string, recipient: string, amount: string) => {
        const { tx_id } = await control(world.devnet, '/devnet/transfer', {
          sender,
          recipient,
          amount,
          memo: 'rent',
        });
        await control(world.devnet, '/devnet/mine');
        return String(tx_id);
      };
      const txId = await pay(alice!.address, bob!.address, '1250000000');
      const received = `testnet:${bob!.address}:${txId}`;
      const sent = `testnet:${alice!.address}:${txId}`;
      // Between two watched addresses: one notification tells both sides.
      await expect
        .poll(async () => (await notificationsShown(page)).map((notification) => notification.title), {})
        .toEqual(['1,250.00 STX · Alice → Bob']);
      expect((await notificationsShown(page))[0]!.ids.toSorted()).toEqual([received, sent].sort());
      const appWindows = () => world.browser.context.pages().filter((open) => open.url().startsWith(world.server.url));

      await clickNotification(world, received);
      await page.waitForURL(`**/address/${bob!.address}#tx-${txId}`);
      expect(appWindows()).toEqual([page]);
      await expect.poll(() => page.locator(`#tx-${txId}`).isVisible()).toBe(true);
      await expect.poll(async () => (await alertLog(page)).find((entry) => entry.id === received)?.read).toBe(true);
      expect(await notificationsShown(page)).toEqual([]);

      // With no window open, the worker asks for one at the transaction. Headless Chromium refuses a window to a
      // click that no person made, so the request itself is what is checked.
      const back = await pay(bob!.address, alice!.address, '1000000');
      const backId = `testnet:${alice!.address}:${back}`;
      await expect.poll(() => shownPhase(page, backId)).toBe('confirmed');
      await page.close();
      const requested = await clickNotification(world, backId);
      expect(requested).toEqual([`/address/${alice!.address}#tx-${back}`]);
      expect(appWindows()).toEqual([]);
    }));
});

/**
 * Alice sends Bob 2.5 STX; once Bob's pending alert is shown, `change` happens to the transfer. Resolves with Bob's
 * alert once it is shown in `phase`, after checking that one notification, its own, tells it.
 */
async function followUp(
  world: World,
  phase: string,
  change: (page: Page, id: string, txId: string) => Promise<void>,
  /** What the notification says, where it is not the inbox entry's words (both sides watched: one for the pair). */
  shownTitle?: string,
): Promise<InboxEntry> {
  const [alice, bob] = peopleOf(world);
  const page = await openWatching(world.browser.context, world.server.url, [alice!, bob!]);
  const { tx_id } = await control(world.devnet, '/devnet/transfer', {
    sender: alice!.address,
    recipient: bob!.address,
    amount: '2500000',
  });
  const id = `testnet:${bob!.address}:${String(tx_id)}`;
  await expect.poll(() => shownPhase(page, id)).toBe('pending');
  await change(page, id, String(tx_id));
  await expect.poll(() => shownPhase(page, id)).toBe(phase);
  const entry = (await alertLog(page)).find((candidate) => candidate.id === id)!;
  const shown = (await notificationsShown(page)).filter((notification) => notification.ids.includes(id));
  expect(shown.map((notification) => notification.title)).toEqual([shownTitle ?? entry.title]);
  return entry;
}

/**
 * Headless Chromium shows no notification to click: the service worker is sent the event a click would send.
 * Resolves with the windows it asked the browser to open.
 */
async function clickNotification(world: World, id: string): Promise<string[]> {
  const worker = world.browser.context.serviceWorkers()[0]!;
  return worker.evaluate(`self.registration.getNotifications().then(async (list) => {
    const notification = list.find((candidate) => candidate.data.ids.includes(${JSON.stringify(id)}));
    if (!notification) throw new Error('no notification for ' + ${JSON.stringify(id)});
    const requested = [];
    const openWindow = self.clients.openWindow.bind(self.clients);
    self.clients.openWindow = (url) => {
      requested.push(url);
      return openWindow(url);
    };
    self.dispatchEvent(new NotificationEvent('notificationclick', { notification }));
    // The click's work is done once the window is asked for or the notification's id is sent to an open one.
    for (let waited = 0; requested.length === 0 && waited < 2000; waited += 50) {
      const windows = await self.clients.matchAll({ type: 'window' });
      if (windows.length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    self.clients.openWindow = openWindow;
    return requested;
  })`);
}
