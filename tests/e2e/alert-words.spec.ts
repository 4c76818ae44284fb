import { c32address } from 'c32check';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshotsEverywhere } from './support/layout.ts';

/**
 * A new user's walk (alert words): a pending token transfer says what it moves, "+N more" opens that burst's alerts
 * rather than the whole unread inbox, the address filter holds still, and a pair's row has no empty name line. The
 * oracle is the devnet's ledger: the transactions it holds, signed as they were.
 */

/** A mainnet address nobody follows here: with it watched the testnet rows carry a "Testnet" mark. */
const MAINNET = c32address(22, 'c0ffee'.padEnd(40, '0'));
const WGOLD = 10n ** 8n;

const harness = serveAppWithDevnetForFile({ blockMs: null, activity: false, shell: true });
let page: Page;
/** The watch list's labels as its screen lists them. */
let watchOrder: string[] = [];

const people = () => harness.devnet.node.chain.accounts.people;
const rows = () => page.locator('.inbox-entry');
const rowOf = (txId: string): Locator => page.locator(`.inbox-entry[data-alert*="${txId}"]`);
const openInbox = async () => {
  await page.getByRole('link', { name: /^Inbox/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
};
const goHome = async () => {
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  await page.locator('.watch-row').first().waitFor();
};
const filterOptions = () => page.getByLabel('Alerts of').locator('option').allTextContents();
/** What the ledger says a token transfer moves: its amount in whole tokens, its symbol, from and to. */
function ledgerFt(txId: string) {
  const intent = harness.devnet.node.chain.tx(txId)!.signed.intent;
  if (intent.kind !== 'ft') throw new Error(`${txId} is not a token transfer`);
  return {
    whole: intent.amount / 10n ** BigInt(intent.token.decimals),
    symbol: intent.token.symbol,
    to: intent.recipient,
  };
}

describe('alert words from a new user’s walk', () => {
  it('sets up: Alice, Bob and Carol labelled, a mainnet address watched too', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    const [alice, bob, carol] = people();
    for (const [typed, label] of [
      [alice!.address, 'Alice'],
      [bob!.address, 'Bob'],
      [carol!.address, 'Carol'],
    ] as const) {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(typed);
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.locator('.watch-row').filter({ hasText: label }).waitFor();
    }
    await waitForLive(page);
    // Watched too, once the devnet is live: its network marks the testnet rows apart.
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(MAINNET);
    await page.getByLabel('Label').fill('Cold wallet');
    await page.getByRole('button', { name: 'Watch' }).click();
    await page.locator('.watch-row').filter({ hasText: 'Cold wallet' }).waitFor();
    watchOrder = await page.locator('.watch-row .watch-label').allTextContents();
  });

  it('lists the address filter in the watch list’s order, whatever order the alerts came in', async () => {
    const [alice, bob, carol, dave] = people();
    await openInbox();
    // Carol's alert first, then Bob's, then Alice's: the newest first in the list, the filter in watch-list order.
    const inOrder = (...names: string[]) => ['Every address', ...watchOrder.filter((name) => names.includes(name))];
    expect(watchOrder.filter((name) => ['Alice', 'Bob', 'Carol'].includes(name))).toHaveLength(3);
    const expected = [[], inOrder('Bob', 'Carol'), inOrder('Alice', 'Bob', 'Carol')];
    for (const [n, [to, amount]] of (
      [
        [carol!, '1100000'],
        [bob!, '1200000'],
        [alice!, '1300000'],
      ] as const
    ).entries()) {
      const count = await rows().count();
      await control(harness.devnet, '/devnet/transfer', { sender: dave!.address, recipient: to.address, amount });
      await expect.poll(() => rows().count()).toBe(count + 1);
      // One address has no filter; then only those with alerts, always in the watch list's order.
      if (n === 0) expect(await page.getByLabel('Alerts of').count()).toBe(0);
      else expect(await filterOptions()).toEqual(expected[n]);
    }
    expect(await filterOptions()).toEqual(inOrder('Alice', 'Bob', 'Carol'));
    await control(harness.devnet, '/devnet/mine');
  });

  it('tells a pending token transfer by what it moves: alone, and between two watched addresses (screenshots)', async () => {
    const [, bob, carol, dave] = people();
    const toBob = String(
      (
        await control(harness.devnet, '/devnet/ft-transfer', {
          sender: carol!.address,
          recipient: bob!.address,
          asset: 'WGOLD',
          amount: String(292n * WGOLD),
        })
      )['tx_id'],
    );
    const toDave = String(
      (
        await control(harness.devnet, '/devnet/ft-transfer', {
          sender: carol!.address,
          recipient: dave!.address,
          asset: 'WGOLD',
          amount: String(5n * WGOLD),
        })
      )['tx_id'],
    );
    const paid = ledgerFt(toBob);
    expect([paid.whole, paid.symbol, paid.to]).toEqual([292n, 'WGOLD', bob!.address]);
    const stray = ledgerFt(toDave);
    // Only Carol's side is pending (the node files it under its sender): her words, and to whom.
    await expect
      .poll(() => rowOf(toBob).locator('strong').allTextContents())
      .toEqual([`Sending ${paid.whole}.00 ${paid.symbol} — pending`]);
    expect(await rowOf(toBob).locator('.inbox-body').textContent()).toMatch(/^To Bob · via watch-gold\.transfer\n/);
    // To an address nobody watches: Carol's own words, to whom on the line below.
    await expect
      .poll(() => rowOf(toDave).locator('strong').allTextContents())
      .toEqual([`Sending ${stray.whole}.00 ${stray.symbol} — pending`]);
    expect(await rowOf(toDave).locator('.inbox-body').textContent()).toMatch(
      /^To (dave\.btc|ST\w+…\w+) · via watch-gold\.transfer\nFee [\d.]+ STX$/,
    );
    // Stored in Carol's words, as her address page and a notification tell it.
    const stored = (await alertLog(page)).find((entry) => entry.txId === toBob && entry.principal === carol!.address);
    expect(stored?.title).toBe(`Sending ${paid.whole}.00 ${paid.symbol} — pending`);
    expect(await rowOf(toDave).locator('.inbox-who-line').textContent()).toBe('CarolTestnet');
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotsEverywhere(page, 'alert-words-pending-token', {
      check: async () => expect(await layoutReport(page)).toMatchObject({ overflow: 0, badControls: [] }),
    });
    // Mined, the words are the movements the node reports: the same amount.
    await control(harness.devnet, '/devnet/mine');
    await expect
      .poll(() => rowOf(toBob).locator('strong').allTextContents())
      .toEqual([`${paid.whole}.00 ${paid.symbol} · Carol → Bob`]);
    // A pair's row names both in its words: no empty name line; its network beside its state.
    expect(await rowOf(toBob).locator('.inbox-who-line').count()).toBe(0);
    expect(await rowOf(toBob).locator('.inbox-headline .badge-testnet').count()).toBe(1);
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshotsEverywhere(page, 'alert-words-pair-row');
  });

  it('“+N more” opens the inbox at that burst, the toast showing one count (screenshots)', async () => {
    const [alice, bob, carol, dave] = people();
    await goHome();
    const burst: string[] = [];
    for (const [to, amount] of [
      [alice!, '2100000'],
      [bob!, '2200000'],
      [carol!, '2300000'],
    ] as const) {
      const sent = await control(harness.devnet, '/devnet/transfer', {
        sender: dave!.address,
        recipient: to.address,
        amount,
      });
      burst.push(String(sent['tx_id']));
      await expect.poll(() => page.locator('.toast strong').textContent()).toMatch(/— pending$/);
    }
    const toast = page.locator('.toast');
    await toast.hover();
    await expect.poll(() => toast.locator('.toast-more').textContent()).toBe('+2 more');
    // One count: the toast's own.
    expect(await toast.textContent()).not.toMatch(/and \d+ more/);
    await screenshotsEverywhere(page, 'alert-words-toast-burst', {
      check: async () => {
        await toast.hover();
        expect(await layoutReport(page)).toMatchObject({ overflow: 0 });
      },
    });
    await page.setViewportSize({ width: 390, height: 844 });
    await toast.hover();
    await toast.locator('.toast-more').click();
    await page.waitForURL(/\/inbox\?since=\d+$/);
    // Above the line the burst's three alerts, newest first; below, what came before it.
    const line = page.locator('.inbox-since');
    await expect.poll(() => line.textContent()).toMatch(/^3 new since \d\d:\d\d( [AP]M)? ↑$/);
    const above = await page
      .locator('.inbox-day-list')
      .first()
      .locator('.inbox-entry')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-alert') ?? ''));
    expect(above.map((ids) => burst.find((txId) => ids.includes(txId)))).toEqual([...burst].reverse());
    expect(await line.boundingBox()).not.toBeNull();
    await screenshotsEverywhere(page, 'alert-words-burst-inbox');
  });
});
