import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';
import type { TxEntry } from '../../mocks/devnet/chain-types.ts';
import { signerManagerOf } from '../../mocks/devnet/pox5-genesis.ts';
import { csvRecords } from '../support/csv-read.ts';
import { ledgerHistory } from '../support/ledger-history.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
/** More than the engine's 50 newest: the rest must come from the node's older pages as the user scrolls. */
const MINED = 130;
const STX = 1_000_000n;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
const chain = () => harness.devnet.node.chain;
const alice = () => chain().accounts.people[0]!.address;
const row = (name: string) => page.locator('.watch-row').filter({ has: page.getByText(name, { exact: true }) });
const history = () => page.getByRole('region', { name: 'Full history' });
const dialog = () => page.getByRole('dialog', { name: /^Export .* as CSV$/ });
/** Carol's mined transactions: several of the export's pages, none read onto the device before its test. */
const CAROL_MINED = 100;

async function saveCsv(button = 'Save the CSV'): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download', { timeout: 120_000 }),
    page.getByRole('button', { name: button }).click({ timeout: 120_000 }),
  ]);
  return readFileSync((await download.path())!, 'utf8');
}

/** Transactions the ledger says moved something of `principal`'s or cost it a fee: those a CSV must hold. */
const ledgerIds = (principal: string) =>
  ledgerHistory(chain(), principal)
    .filter((tx) => tx.net.size > 0 || tx.fee > 0n)
    .map((tx) => tx.txId);

/**
 * `count` mined transactions of Alice, every kind the filters tell apart: STX in and out, a token in, an NFT minted to
 * her, a token transfer of hers that fails, a pox-5 stake. Ten a block.
 */
async function busy(count: number): Promise<void> {
  const { people, deployer } = chain().accounts;
  const me = alice();
  const [other, third] = people.slice(1).map((person) => person.address);
  const token = chain().assets.tokens[0]!;
  for (let n = 0; n < count; n++) {
    if (n === 7) {
      // More than the token's whole supply: it fails whatever reaches her before it is mined.
      await chain().submit(me, { kind: 'ft', token, recipient: third!, amount: 10n ** 30n, memo: 'too much' });
    } else if (n === 11)
      await chain().submit(me, {
        kind: 'pox5-stake',
        signer: signerManagerOf(chain().accounts),
        amount: 60_000n * STX,
        cycles: 3,
        startBurnHeight: chain().tip.burnHeight + 1,
      });
    else if (n % 25 === 3)
      await chain().submit(deployer.address, {
        kind: 'nft-mint',
        collection: chain().assets.nft,
        recipient: me,
        id: BigInt(1000 + n),
      });
    else if (n % 3 === 0)
      await chain().submit(other!, { kind: 'stx', recipient: me, amount: STX + BigInt(n), memo: `in ${n}` });
    else if (n % 3 === 1)
      await chain().submit(me, { kind: 'stx', recipient: third!, amount: STX / 4n + BigInt(n), memo: `out ${n}` });
    else await chain().submit(other!, { kind: 'ft', token, recipient: me, amount: 10n ** 8n + BigInt(n), memo: '' });
    if (n % 10 === 9) chain().mine();
  }
  while (chain().pending().length > 0) chain().mine();
}

/** What the ledger says each of Alice's mined transactions is: the filters' truth, from the devnet, not the app. */
function ledgerKinds(entry: TxEntry): Set<string> {
  const kinds = new Set<string>();
  if (entry.state.kind !== 'confirmed') return kinds;
  const { outcome } = entry.state;
  if (outcome.status !== 'success') kinds.add('failed');
  const intent = entry.signed.intent.kind;
  if (intent.startsWith('pox5') || intent.startsWith('stack')) kinds.add('staking');
  if (outcome.status !== 'success') return kinds;
  for (const event of outcome.events) {
    if (event.type === 'stx_lock' || (event.recipient !== alice() && event.sender !== alice())) continue;
    kinds.add(event.type === 'stx_transfer' ? 'stx' : event.type === 'ft_transfer' ? 'tokens' : 'nfts');
  }
  return kinds;
}

const minedOfAlice = () =>
  chain()
    .transactionsOf(alice())
    .filter((entry) => entry.state.kind === 'confirmed');

/**
 * Scrolls the full history from its top to its end as a user does, a screen at a time, and returns every row's
 * transaction id seen on the way (the list draws only the rows near the screen). Its end: the node read to the
 * oldest page (`whole`), or nothing more to draw.
 */
async function scrollThrough(whole: boolean): Promise<string[]> {
  const seen = new Set<string>();
  await history().evaluate((section) => section.scrollIntoView());
  let still = 0;
  for (let step = 0; step < 400 && still < 4; step++) {
    const ids = await history()
      .locator('.history-list > .activity-row')
      .evaluateAll((rows) => rows.map((item) => item.getAttribute('data-tx')!));
    const before = seen.size;
    ids.forEach((id) => seen.add(id));
    const atEnd = await page.evaluate(() => innerHeight + scrollY >= document.documentElement.scrollHeight - 2);
    const done =
      !whole ||
      (await history()
        .getByText(/^The whole history:/)
        .isVisible());
    still = atEnd && done && seen.size === before ? still + 1 : 0;
    await page.mouse.move(page.viewportSize()!.width / 2, page.viewportSize()!.height / 2);
    await page.mouse.wheel(0, 700);
    // The next screen's rows are drawn on the scroll event's frame: wait for it, not for a time.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  }
  return [...seen];
}

async function openFullHistory(size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.getByRole('link', { name: 'Stacks Watch' }).click();
  await row('Alice').getByRole('link').click();
  await page.getByRole('button', { name: 'Full history: every transaction, filters, amounts' }).click();
  await history().waitFor();
}

describe('the address page’s full history', () => {
  it(`sets up: the demo accounts watched, ${MINED} mined transactions of Alice`, async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await busy(MINED);
    expect(minedOfAlice().length).toBe(MINED);
    const [, , carol, dave] = chain().accounts.people;
    for (let n = 0; n < CAROL_MINED; n++) {
      await chain().submit(dave!.address, {
        kind: 'stx',
        recipient: carol!.address,
        amount: STX + BigInt(n),
        memo: '',
      });
      if (n % 25 === 24) chain().mine();
    }
    while (chain().pending().length > 0) chain().mine();
  });

  it('shows every mined transaction as the user scrolls, ids equal to the ledger', async () => {
    await openFullHistory(PHONE);
    await screenshot(page, 'history-page-390x844');
    const ids = await scrollThrough(true);
    const truth = minedOfAlice().map((entry) => entry.signed.txId);
    expect(truth.length).toBeGreaterThan(50);
    expect([...ids].sort()).toEqual([...truth].sort());
  });

  it('filters by STX, tokens, NFTs, staking, failed and pending, each as the ledger classes them', async () => {
    await page.setViewportSize(DESKTOP);
    await page.evaluate(() => scrollTo(0, 0));
    const [, bob] = chain().accounts.people;
    const waiting = await chain().submit(bob!.address, { kind: 'stx', recipient: alice(), amount: 3n * STX, memo: '' });
    await history().locator(`[data-tx="${waiting.signed.txId}"]`).waitFor();
    // The heading and the line under the list give one count, the transaction met after the whole read included.
    const counted = async () => {
      const heading = (await history()
        .getByText(/ of \d+ transactions? shown$/)
        .textContent())!;
      const status = (await history()
        .getByText(/^The whole history: all \d+ transactions?/)
        .textContent())!;
      return [heading.match(/of (\d+)/)![1], status.match(/all (\d+)/)![1]];
    };
    await expect.poll(counted).toEqual([String(minedOfAlice().length + 1), String(minedOfAlice().length + 1)]);
    for (const filter of ['STX', 'Tokens', 'NFTs', 'Staking', 'Failed'] as const) {
      await history().getByRole('radio', { name: filter }).click();
      const kind = filter.toLowerCase();
      const truth = minedOfAlice()
        .filter((entry) => ledgerKinds(entry).has(kind))
        .map((entry) => entry.signed.txId);
      expect(truth.length, filter).toBeGreaterThan(0);
      const pending = filter === 'STX' ? [waiting.signed.txId] : [];
      expect((await scrollThrough(false)).sort(), filter).toEqual([...truth, ...pending].sort());
      if (filter === 'Tokens') await screenshot(page, 'history-page-tokens-1366x900');
      await page.evaluate(() => scrollTo(0, 0));
    }
    await history().getByRole('radio', { name: 'Pending' }).click();
    expect(await scrollThrough(false)).toEqual([waiting.signed.txId]);
    await history().getByRole('radio', { name: 'All' }).click();
    chain().mine();
  });

  it('keeps a dropped and a reverted transaction in place, each marked with what happened', async () => {
    await page.evaluate(() => scrollTo(0, 0));
    const bob = chain().accounts.people[1]!.address;
    const txRow = (txId: string) => history().locator(`[data-tx="${txId}"]`);
    const reverted = await chain().submit(bob, { kind: 'stx', recipient: alice(), amount: 4n * STX, memo: 'reverted' });
    chain().mine();
    await txRow(reverted.signed.txId)
      .getByText(/confirmation/)
      .waitFor();
    const dropped = await chain().submit(bob, { kind: 'stx', recipient: alice(), amount: 5n * STX, memo: 'dropped' });
    await txRow(dropped.signed.txId).waitFor();
    chain().drop(dropped.signed.txId, 'dropped_stale_garbage_collect');
    // Its block orphaned, the transfer waits in the mempool again: nothing mines it in this test.
    chain().reorg(1);
    await txRow(dropped.signed.txId).getByText('Dropped: never mined, nothing moved').waitFor();
    // A wallet's "speed up": the one replaced says by which, never that something was lost.
    const slow = await chain().submit(bob, { kind: 'stx', recipient: alice(), amount: 6n * STX, memo: 'slow' });
    await txRow(slow.signed.txId).waitFor();
    const faster = await chain().replaceByFee(slow.signed.txId);
    const short = `${faster.signed.txId.slice(0, 6)}…${faster.signed.txId.slice(-4)}`;
    await txRow(slow.signed.txId)
      .getByText(`Replaced by ${short} with a higher fee: never mined, nothing moved`)
      .waitFor();
    // Named as its alert names it to Alice, who did not sign it: "Replaced", never "Dropped".
    await txRow(slow.signed.txId).getByText('Replaced: Receiving 6.00 STX').waitFor();
    await txRow(reverted.signed.txId)
      .getByText(/^Reverted by a re-org/)
      .waitFor();
    // Told "pending" again once it is back in the mempool: still marked, until it is mined again.
    await txRow(reverted.signed.txId)
      .getByText(/^Receiving 4.00 STX — pending/)
      .waitFor();
    await txRow(reverted.signed.txId)
      .getByText(/^Reverted by a re-org: back in the mempool/)
      .waitFor();
    await history().evaluate((section) => section.scrollIntoView());
    await screenshot(page, 'history-page-marks-1366x900');
    await page.setViewportSize(PHONE);
    await history().evaluate((section) => section.scrollIntoView());
    await screenshot(page, 'history-page-marks-390x844');
  });

  it('stops a long export when the user presses Cancel, and says so', async () => {
    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await row('Carol').getByRole('link').click();
    // Each of the node's answers slowed: the export of Carol's pages takes long enough to be cancelled half-way.
    await control(harness.devnet, '/devnet/faults', { latencyMs: 1_500 });
    try {
      await page.getByRole('button', { name: 'Export CSV…' }).click();
      await dialog().getByRole('button', { name: 'Export', exact: true }).click();
      const kept = dialog().locator('.export-progress progress');
      await expect.poll(() => kept.getAttribute('value')).toMatch(/^[1-9]\d*$/);
      await dialog().getByRole('button', { name: 'Cancel' }).click();
      await dialog()
        .getByText(/^Export cancelled: no file was made\. The \d+ transactions read stay on this device/)
        .waitFor();
      expect(await dialog().locator('.export-progress').count()).toBe(0);
      expect(await dialog().getByRole('button', { name: 'Save the CSV' }).count()).toBe(0);
      await screenshot(page, 'history-export-cancelled-1366x900');
    } finally {
      await control(harness.devnet, '/devnet/faults', { latencyMs: 0 });
    }
  });

  it('offline, exports what is on the device and says what is missing', async () => {
    const carol = chain().accounts.people[2]!.address;
    await page.context().setOffline(true);
    try {
      await dialog().getByRole('button', { name: 'Export', exact: true }).click();
      const missing = dialog().getByRole('status').filter({ hasText: 'Not all in the file' });
      await missing.waitFor().catch(async (e) => {
        await screenshot(page, 'debug-offline');
        console.log('DIALOG', await dialog().textContent());
        throw e;
      });
      const words = (await missing.textContent())!;
      const onDevice = Number(/Carol: (\d+) transactions? on this device of about (\d+)/.exec(words)?.[1]);
      expect(words).toMatch(/none before \d{4}-\d{2}-\d{2}\. This device is offline, so newer ones may be missing too/);
      expect(words).not.toMatch(/Failed to fetch|could not be reached/);
      await page.setViewportSize(PHONE);
      await screenshot(page, 'history-export-offline-390x844');
      const ids = new Set(csvRecords(await saveCsv()).map((record) => record['TxHash']!));
      const truth = new Set(ledgerIds(carol));
      expect(onDevice).toBeGreaterThan(0);
      expect(ids.size).toBe(onDevice);
      expect(ids.size).toBeLessThan(truth.size);
      expect([...ids].filter((id) => !truth.has(id))).toEqual([]);
    } finally {
      await page.context().setOffline(false);
    }
    await dialog().getByRole('button', { name: 'Close' }).click();
  });

  it('offline, the full history shows what is on the device and says what is missing', async () => {
    await page.context().setOffline(true);
    try {
      await page.getByRole('button', { name: 'Full history: every transaction, filters, amounts' }).click();
      const status = history().getByRole('status');
      await status.getByText(/^Showing what is on this device: \d+ transactions of about \d+, none before/).waitFor();
      await status.getByText(/Older ones are missing: This device is offline\.$/).waitFor();
      const words = (await status.textContent())!;
      expect(words).not.toMatch(/Failed to fetch|could not be reached/);
      const kept = Number(/on this device: (\d+)/.exec(words)![1]);
      expect(kept).toBeGreaterThan(0);
      expect(kept).toBeLessThan(ledgerIds(chain().accounts.people[2]!.address).length);
      expect(await history().getByRole('button', { name: 'Try again' }).isVisible()).toBe(true);
      await page.setViewportSize(PHONE);
      await status.scrollIntoViewIfNeeded();
      await screenshot(page, 'history-offline-390x844');
      await page.setViewportSize(DESKTOP);
      await status.scrollIntoViewIfNeeded();
      await screenshot(page, 'history-offline-1366x900');
    } finally {
      await page.context().setOffline(false);
    }
  });

  it('exports the whole watch list from Settings, in one file with a Wallet column, covering every watched address', async () => {
    await page.setViewportSize(DESKTOP);
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    const watched = chain().accounts.all.map((account) => account.address);
    await expect.poll(() => page.locator('.watch-row').count()).toBe(watched.length);
    await page.getByRole('link', { name: 'Settings' }).click();
    await page
      .getByRole('region', { name: 'Transaction history (CSV)' })
      .getByRole('button', { name: 'Export CSV…' })
      .click();
    await dialog().getByRole('button', { name: 'Export', exact: true }).click();
    const records = csvRecords(await saveCsv('Save one file with a Wallet column'));
    const ids = new Set(records.map((record) => record['TxHash']!));
    expect(records.every((record) => ledgerIds(record['Wallet']!).includes(record['TxHash']!))).toBe(true);
    for (const principal of watched) {
      const missing = ledgerIds(principal).filter((id) => !ids.has(id));
      expect(missing, principal).toEqual([]);
    }
    expect([...ids].every((id) => watched.some((principal) => ledgerIds(principal).includes(id)))).toBe(true);
  });
});
