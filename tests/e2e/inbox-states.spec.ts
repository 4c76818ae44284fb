import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitForServiceWorkerControl } from './support/app-page.ts';
import { alertLog, control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, LOOK_SIZES, screenshotsEverywhere } from './support/layout.ts';

/**
 * The inbox on a phone (issue 36, item 6): each row says where its transaction stands (Pending, Confirmed, Failed,
 * Dropped, Reverted), a line parts what came since the user last looked from what they had seen, and the filters
 * leave the first row near the top. Every chip is checked against the devnet's own record of the transaction.
 */

const STX = 1_000_000n;
/**
 * At 390×844 the first row starts within this much of the top: the title, the filters on one line, the grouping, the
 * day. Each filter on a line of its own put it at 382 px, half the screen down.
 */
const FIRST_ROW_BY = 280;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
const chain = () => harness.devnet.node.chain;
const person = (index: number) => chain().accounts.people[index]!.address;
const rowOf = (txId: string) => page.locator(`.inbox-entry[data-alert*="${txId}"]`);
/** What each transaction of the test is, by the devnet's record; the orphaned one is named apart. */
const sent: { txId: string; orphaned?: true }[] = [];

/** The chip a row must carry, from the devnet: where the transaction is now, never from the app's alert. */
function truthOf(txId: string): readonly string[] {
  const state = chain().tx(txId)!.state;
  const orphaned = sent.find((entry) => entry.txId === txId)?.orphaned === true;
  // Replaced by a higher fee: "Fee raised" to its signer, "Replaced" to its recipient (person 3 signs, unwatched).
  if (state.kind === 'dropped') return state.status === 'dropped_replace_by_fee' ? ['Replaced'] : ['Dropped'];
  // Back in the mempool after its block was orphaned: told reverted, or pending where both were heard at once.
  if (state.kind === 'pending') return orphaned ? ['Reverted', 'Pending'] : ['Pending'];
  return state.outcome.status === 'success' ? ['Confirmed'] : ['Failed'];
}

async function alerted(principal: string, txId: string, phases: readonly string[]): Promise<void> {
  const id = `testnet:${principal}:${txId}`;
  await expect
    .poll(async () => phases.includes((await alertLog(page)).find((entry) => entry.id === id)?.phase ?? ''))
    .toBe(true);
}

async function transfer(from: number, to: number, amount: bigint): Promise<string> {
  const { tx_id } = await control(harness.devnet, '/devnet/transfer', {
    sender: person(from),
    recipient: person(to),
    amount: amount.toString(),
  });
  sent.push({ txId: String(tx_id) });
  return String(tx_id);
}

const openInbox = async () => {
  await page.getByRole('link', { name: /^Inbox/ }).click();
  await page.getByRole('heading', { level: 1, name: 'Inbox' }).waitFor();
};

describe('the inbox: a state per row and a line at what was seen (issue 36, item 6)', () => {
  it('sets up: Alice and Bob watched; a payment and a failed call of Alice seen in the inbox', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(LOOK_SIZES[1]);
    await page.goto(harness.server.url);
    await waitForServiceWorkerControl(page);
    for (const [index, label] of [
      [0, 'Alice'],
      [1, 'Bob'],
    ] as const) {
      await page.getByRole('button', { name: 'Add address' }).click();
      await page.getByLabel('Address').fill(person(index));
      await page.getByLabel('Label').fill(label);
      await page.getByRole('button', { name: 'Watch' }).click();
      await page.locator('.watch-row').filter({ hasText: label }).waitFor();
    }
    await waitForLive(page);
    const paid = await transfer(3, 0, 1_250_000n);
    chain().mine();
    await alerted(person(0), paid, ['confirmed']);
    // More than the vault holds: the contract refuses it, Alice pays the fee.
    const { tx_id } = await control(harness.devnet, '/devnet/vault', {
      sender: person(0),
      action: 'withdraw',
      amount: (10_000_000n * STX).toString(),
    });
    sent.push({ txId: String(tx_id) });
    chain().mine();
    await alerted(person(0), String(tx_id), ['failed']);
    await openInbox();
    await expect.poll(() => page.locator('.inbox-entry').count()).toBe(2);
    // No line on a first look: nothing was seen before.
    expect(await page.locator('.inbox-since').count()).toBe(0);
    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await page.locator('.watch-row').first().waitFor();
  });

  it('then: a transfer dropped, one reverted by a re-org, one pending', async () => {
    const dropped = await transfer(3, 1, 2_500_000n);
    await alerted(person(1), dropped, ['pending']);
    await control(harness.devnet, '/devnet/drop', { tx_id: dropped });
    await alerted(person(1), dropped, ['dropped']);
    const slow = await transfer(3, 1, 1_500_000n);
    await alerted(person(1), slow, ['pending']);
    const { replaced_by } = await control(harness.devnet, '/devnet/drop', {
      tx_id: slow,
      status: 'dropped_replace_by_fee',
    });
    sent.push({ txId: String(replaced_by) });
    await alerted(person(1), slow, ['dropped']);
    const reverted = await transfer(3, 0, 3_750_000n);
    chain().mine();
    await alerted(person(0), reverted, ['confirmed']);
    sent.at(-1)!.orphaned = true;
    await control(harness.devnet, '/devnet/reorg', { depth: 1 });
    await alerted(person(0), reverted, ['reverted', 'pending']);
    const pending = await transfer(3, 1, 5_000_000n);
    await alerted(person(1), pending, ['pending']);
  });

  it('gives every row the state the devnet holds its transaction in', async () => {
    await openInbox();
    await expect.poll(() => page.locator('.inbox-entry').count()).toBe(sent.length);
    for (const { txId } of sent) {
      const chip = rowOf(txId).locator('.inbox-state');
      expect(truthOf(txId)).toContain(await chip.textContent());
      expect(await chip.getAttribute('class')).toMatch(
        /inbox-state-(pending|confirmed|failed|dropped|replaced|reverted)/,
      );
    }
  });

  it('draws the line under what came since the user last looked, above what they had seen', async () => {
    const line = page.locator('.inbox-since');
    expect(await line.count()).toBe(1);
    expect(await line.textContent()).toMatch(/^New since you last looked/);
    const above = await page.locator('.inbox-entry').evaluateAll((rows) => {
      const divider = document.querySelector('.inbox-since')!;
      return rows.map((row) => ({
        ids: row.getAttribute('data-alert')!,
        above: Boolean(divider.compareDocumentPosition(row) & Node.DOCUMENT_POSITION_PRECEDING),
      }));
    });
    for (const [index, { txId }] of sent.entries()) {
      const row = above.find((candidate) => candidate.ids.includes(txId))!;
      // The first two were in the inbox when the user last left it; the other three came after.
      expect([txId, row.above]).toEqual([txId, index >= 2]);
    }
  });

  it(`starts the first row within ${FIRST_ROW_BY} px at 390×844, and fits 320, 390 and 1366 px (screenshots)`, async () => {
    await page.setViewportSize(LOOK_SIZES[1]);
    await page.evaluate(() => window.scrollTo(0, 0));
    const top = await page
      .locator('.inbox-entry')
      .first()
      .evaluate((row) => row.getBoundingClientRect().top);
    const problems: string[] = [];
    await screenshotsEverywhere(page, 'inbox-states', {
      check: async ({ size, scheme }) => {
        await page.evaluate(() => window.scrollTo(0, 0));
        const where = `${size.width}×${size.height} ${scheme}`;
        const report = await layoutReport(page);
        if (report.overflow > 0) problems.push(`${where}: scrolls ${report.overflow} px sideways`);
        // Each chip lies whole inside its row, beside what happened, never under the time or the buttons.
        const chips = await page.locator('.inbox-entry').evaluateAll((rows) =>
          rows.flatMap((row) => {
            const chip = row.querySelector('.inbox-state')!.getBoundingClientRect();
            const box = row.getBoundingClientRect();
            const actions = row.querySelector('.inbox-actions')!.getBoundingClientRect();
            const inside = chip.left >= box.left && chip.right <= box.right && chip.width > 0;
            const clear = chip.right <= actions.left + 0.5 || chip.bottom <= actions.top + 0.5;
            return inside && clear ? [] : [`chip “${row.querySelector('.inbox-state')!.textContent}” out of place`];
          }),
        );
        problems.push(...chips.map((problem) => `${where}: ${problem}`));
      },
    });
    expect(problems).toEqual([]);
    expect(top).toBeLessThanOrEqual(FIRST_ROW_BY);
  });
});
