import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { screenshot } from './support/layout.ts';

/*
 * The full history left open while the address's transactions go on arriving, as on the devnet where activity never
 * stops: its count and its "whole history" line follow the list, transaction by transaction, past the engine's 50
 * newest (the history read when it opened is then no longer beside them). Every count is the devnet ledger's.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
/** New transactions while the page is open: more than the engine's 50 newest, so the ones read first fall out. */
const ARRIVING = 64;
const PER_BLOCK = 8;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
const chain = () => harness.devnet.node.chain;
const people = () => chain().accounts.people.map((person) => person.address);
const history = () => page.getByRole('region', { name: 'Full history' });

/** Alice's mined transactions, as the devnet's ledger holds them. */
const minedOfAlice = () =>
  chain()
    .transactionsOf(people()[0]!)
    .filter((entry) => entry.state.kind === 'confirmed').length;

/** Bob and Alice send each other STX, `count` transactions, mined `PER_BLOCK` a block through the control API. */
async function exchange(count: number, from: number): Promise<void> {
  const [alice, bob] = people() as [string, string];
  for (let n = from; n < from + count; n++) {
    const [sender, recipient] = n % 2 === 0 ? [bob, alice] : [alice, bob];
    await chain().submit(sender, { kind: 'stx', recipient, amount: 1_000_000n + BigInt(n), memo: `n ${n}` });
    if (n % PER_BLOCK === PER_BLOCK - 1) await control(harness.devnet, '/devnet/mine');
  }
  while (chain().pending().length > 0) await control(harness.devnet, '/devnet/mine');
}

/** The page's words for a history of `count` transactions, all listed and read down to the first. */
async function expectWhole(count: number): Promise<void> {
  await expect
    .poll(() =>
      history()
        .getByText(/^\d+ of \d+ transactions? shown$/)
        .textContent(),
    )
    .toBe(`${count} of ${count} transactions shown`);
  await expect
    .poll(() => history().getByRole('status').textContent())
    .toBe(`The whole history: all ${count} transactions, down to the first, read from the node.`);
}

describe('a full history left open while transactions arrive', () => {
  it('sets up: the demo accounts watched, a few transactions of Alice, her full history open', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(PHONE);
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await exchange(5, 0);
    await page.locator('.watch-row').filter({ hasText: 'Alice' }).getByRole('link').click();
    await page.getByRole('button', { name: 'Full history: every transaction, filters, amounts' }).click();
    await expectWhole(minedOfAlice());
  });

  it(`counts each new transaction as it arrives, ${ARRIVING} of them, past the engine's 50 newest`, async () => {
    const before = minedOfAlice();
    for (let block = 0; block < ARRIVING / PER_BLOCK; block++) {
      await exchange(PER_BLOCK, 5 + block * PER_BLOCK);
      // Waited for as it arrives: the words follow the list at every step, not only in the end.
      await expectWhole(minedOfAlice());
    }
    expect(minedOfAlice()).toBe(before + ARRIVING);
    const rows = await history()
      .locator('.history-list > .activity-row')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-tx')));
    // The newest first: the list grew at its top.
    const newest = chain()
      .transactionsOf(people()[0]!)
      .filter((entry) => entry.state.kind === 'confirmed')[0]!;
    expect(rows[0]).toBe(newest.signed.txId);
  });

  it('reads the same at 390 and 1366 px (screenshots)', async () => {
    for (const size of [PHONE, DESKTOP]) {
      await page.setViewportSize(size);
      await history()
        .getByRole('status')
        .evaluate((status) => status.scrollIntoView({ block: 'end' }));
      await screenshot(page, `history-live-end-${size.width}x${size.height}`);
      await history().evaluate((section) => section.scrollIntoView());
      await screenshot(page, `history-live-top-${size.width}x${size.height}`);
    }
  });
});
