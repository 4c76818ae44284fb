import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, LOOK_SIZES, screenshot, screenshotsEverywhere } from './support/layout.ts';

/**
 * The full history of a staker (issue 36, item 6): a stake says how many STX it locked, a reward claim is filed
 * under Staking (not Tokens), and a failed call says why the chain refused it and what it tried to move. Every figure
 * and reason comes from the devnet's ledger and the transactions it signed.
 */

const STX = 1_000_000n;
const STAKE = 60_000n * STX;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
const chain = () => harness.devnet.node.chain;
const alice = () => chain().accounts.people[0]!.address;
const bob = () => chain().accounts.people[1]!.address;
/** Bob as the app names someone it does not watch: his BNS name on the devnet, else his address's ends. */
const bobAsNamed = () =>
  [...chain().names].find(([, owner]) => owner === bob())?.[0] ?? `${bob().slice(0, 6)}…${bob().slice(-4)}`;
const history = () => page.getByRole('region', { name: 'Full history' });
const txRow = (txId: string) => history().locator(`[data-tx="${txId}"]`);
const ids: Record<'stake' | 'claim' | 'refused' | 'overdrawn' | 'guarded', string> = {
  stake: '',
  claim: '',
  refused: '',
  overdrawn: '',
  guarded: '',
};

/** "60,000.00 STX", as the app writes an amount of micro-STX. */
const stx = (amount: bigint) =>
  `${(amount / STX).toLocaleString('en-US')}.${((amount % STX) / 10_000n).toString().padStart(2, '0')} STX`;

/** The transaction's outcome as the devnet mined it. */
function outcomeOf(txId: string) {
  const state = chain().tx(txId)!.state;
  if (state.kind !== 'confirmed') throw new Error(`${txId} is not mined`);
  return state.outcome;
}

async function mine(): Promise<void> {
  await control(harness.devnet, '/devnet/mine');
}

/** The ids of the rows the full history lists under a filter, as drawn. */
async function listedUnder(filter: string): Promise<string[]> {
  await history().getByRole('radio', { name: filter }).click();
  await expect.poll(() => history().getByRole('radio', { name: filter }).isChecked()).toBe(true);
  return history()
    .locator('.history-list > .activity-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tx')!));
}

describe('a staker’s full history: the stake’s amount, the claim under Staking, why a call failed', () => {
  it('sets up: Alice stakes, claims her rewards, and three calls of hers fail', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add address' }).click();
    await page.getByLabel('Address').fill(alice());
    await page.getByLabel('Label').fill('Alice');
    await page.getByRole('button', { name: 'Watch' }).click();
    await waitForLive(page);

    ids.stake = String(
      (await control(harness.devnet, '/devnet/stake', { staker: alice(), amount: STAKE.toString(), cycles: 3 })).tx_id,
    );
    await mine();
    await control(harness.devnet, '/devnet/cycles', { count: 2 });
    ids.claim = String((await control(harness.devnet, '/devnet/claim', { staker: alice() })).tx_id);
    // More than the vault holds: the contract refuses it.
    ids.refused = String(
      (
        await control(harness.devnet, '/devnet/vault', {
          sender: alice(),
          action: 'withdraw',
          amount: (10_000_000n * STX).toString(),
        })
      ).tx_id,
    );
    const token = chain().assets.tokens[0]!;
    // More of the token than there is (its whole supply and 5 base units): the token's contract refuses it.
    const overdrawn = await chain().submit(alice(), {
      kind: 'ft',
      token,
      recipient: bob(),
      amount: token.totalSupply + 5n,
      memo: 'rent',
    });
    ids.overdrawn = overdrawn.signed.txId;
    // A token transfer whose post-condition allows one unit less than it moves: the chain aborts it.
    const guarded = await chain().submit(alice(), {
      kind: 'ft',
      token,
      recipient: bob(),
      amount: 5n * 10n ** BigInt(token.decimals),
      memo: '',
      breakPostCondition: true,
    });
    ids.guarded = guarded.signed.txId;
    await mine();
    expect(outcomeOf(ids.stake).status).toBe('success');
    expect(outcomeOf(ids.claim).status).toBe('success');
    expect(outcomeOf(ids.refused).status).toBe('abort_by_response');
    expect(outcomeOf(ids.overdrawn).status).toBe('abort_by_response');
    expect(outcomeOf(ids.guarded).status).toBe('abort_by_post_condition');

    await page.locator('.watch-row').filter({ hasText: 'Alice' }).getByRole('link').click();
    await page.getByRole('button', { name: 'Full history: every transaction, filters, amounts' }).click();
    await history().waitFor();
    for (const txId of Object.values(ids)) await txRow(txId).waitFor();
  });

  it('says how many STX the stake locked, as the ledger holds them', async () => {
    const locked = chain().state.staking.stx.get(alice())!.amount;
    expect(locked).toBe(STAKE);
    const row = txRow(ids.stake);
    await expect.poll(() => row.locator('.activity-title').textContent()).toBe(`Staked ${stx(locked)}`);
    expect(await row.locator('.amount-locked').textContent()).toBe(`Locked ${stx(locked)}`);
  });

  it('files the reward claim under Staking, not Tokens', async () => {
    expect(await listedUnder('Staking')).toEqual(expect.arrayContaining([ids.stake, ids.claim]));
    expect(await listedUnder('Tokens')).not.toContain(ids.claim);
    await listedUnder('All');
  });

  it('says why each failed call was refused and what it tried to move', async () => {
    const refused = outcomeOf(ids.refused).result.repr;
    expect(refused).toMatch(/^\(err u\d+\)$/);
    const asked = chain()
      .tx(ids.refused)!
      .signed.contractCall!.args.find((arg) => arg.name === 'amount')!.repr;
    // Its argument as a plain number, not Clarity's `u…`.
    const plain = BigInt(asked.replace(/^u/, '')).toLocaleString('en-US');
    await expect
      .poll(() => txRow(ids.refused).locator('.activity-failure').textContent())
      .toBe(
        `Refused by the contract with error ${refused.slice('(err '.length, -1)} · tried to withdraw (amount ${plain})`,
      );
    // A token's transfer in the token's units, Alice by her label, Bob (not watched) by the name the devnet's BNS
    // holds for him (his address's ends if it holds none), the memo as its text.
    const token = chain().assets.tokens[0]!;
    const tried = chain().tx(ids.overdrawn)!.signed.intent;
    if (tried.kind !== 'ft') throw new Error('the overdrawn transfer is a token transfer');
    const scale = 10n ** BigInt(token.decimals);
    const digits = (tried.amount % scale).toString().padStart(token.decimals, '0').replace(/0+$/, '');
    const units = `${(tried.amount / scale).toLocaleString('en-US')}.${digits.padEnd(2, '0')} ${token.symbol}`;
    const overdrawnError = outcomeOf(ids.overdrawn).result.repr.slice('(err '.length, -1);
    await expect
      .poll(() => txRow(ids.overdrawn).locator('.activity-failure').textContent())
      .toBe(
        `Refused by the contract with error ${overdrawnError} · tried to send ${units} from Alice to ` +
          `${bobAsNamed()}, memo “${tried.memo}”`,
      );
    // The post-condition Alice signed: exactly one unit of the token less than the transfer moves.
    const allowed = 5n * 10n ** BigInt(token.decimals) - 1n;
    const whole = allowed / 10n ** BigInt(token.decimals);
    const fraction = (allowed % 10n ** BigInt(token.decimals)).toString().padStart(token.decimals, '0');
    await expect
      .poll(() => txRow(ids.guarded).locator('.activity-failure').textContent())
      .toMatch(
        new RegExp(`^Stopped by a post-condition · allowed: Alice sends exactly ${whole}\\.${fraction.slice(0, 2)}`),
      );
    expect(await txRow(ids.guarded).locator('.activity-failure').textContent()).toContain(token.symbol);
    // Its detail: the result in the status, what was called with what (in words, and exactly as Clarity printed it),
    // what the sender allowed to move.
    await txRow(ids.refused).getByRole('button').first().click();
    const detail = txRow(ids.refused).locator('.tx-detail');
    expect(await detail.textContent()).toContain(`its call returned ${refused}`);
    expect(await detail.textContent()).toContain(`withdraw (amount ${plain})`);
    expect(await detail.locator('code').allTextContents()).toContain(`withdraw (amount ${asked})`);
    await txRow(ids.refused).getByRole('button').first().click();
    await detail.waitFor({ state: 'detached' });
  });

  it('fits 320, 390 and 1366 px in light and dark (screenshots)', async () => {
    const problems: string[] = [];
    await screenshotsEverywhere(page, 'history-calls', {
      show: txRow(ids.refused),
      check: async ({ size, scheme }) => {
        const report = await layoutReport(page);
        if (report.overflow > 0) problems.push(`${size.width} ${scheme}: scrolls ${report.overflow} px sideways`);
        // With one address watched there is no list beside the page: the history has the page's width.
        const width = await history().evaluate((section) => section.getBoundingClientRect().width);
        if (width < Math.min(size.width - 64, 600))
          problems.push(`${size.width} ${scheme}: the full history is squeezed to ${Math.round(width)} px`);
      },
    });
    await screenshotsEverywhere(page, 'history-calls-transfer', { show: txRow(ids.overdrawn) });
    // The refused transfer's detail: what it tried in words, and exactly as Clarity printed it.
    await txRow(ids.overdrawn).getByRole('button').first().click();
    for (const size of [LOOK_SIZES[1], LOOK_SIZES[2]]) {
      await page.setViewportSize(size);
      await txRow(ids.overdrawn)
        .locator('.tx-detail')
        .evaluate((detail) => detail.scrollIntoView({ block: 'center' }));
      await screenshot(page, `history-calls-tried-${size.width}x${size.height}`);
    }
    await txRow(ids.overdrawn).getByRole('button').first().click();
    await screenshotsEverywhere(page, 'history-stake', { show: txRow(ids.stake) });
    expect(problems).toEqual([]);
  });
});
