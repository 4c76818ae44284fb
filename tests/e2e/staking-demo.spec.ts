import { describe, expect, it } from 'vitest';
import { alertLog, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';

/** The demo chain as `npm start` runs it, faster: its stakers' rewards are told as they become claimable. */
const harness = serveAppWithDevnetForFile({ blockMs: 400, activity: true, shell: true });

describe('the demo chain’s staking, as a new user sees it', () => {
  it('tells Alice’s claimable sBTC once per round, and each of her claims once', async () => {
    const page = await harness.browser.context.newPage();
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    const chain = harness.devnet.node.chain;
    const watchedAt = chain.tip.height;
    const alice = chain.accounts.people[0]!.address;
    const titles = async () =>
      (await alertLog(page)).filter((entry) => entry.principal === alice).map((entry) => entry.title);
    await expect
      .poll(async () => (await titles()).filter((title) => title.startsWith('Claimed')).length, {
        timeout: 90_000,
        interval: 500,
      })
      .toBeGreaterThanOrEqual(1);
    // The ledger's own claims by Alice, mined after she was surely past her first sync: each told once, as hers.
    const claimTxs = chain
      .transactionsOf(alice)
      .filter((entry) => entry.signed.contractCall?.functionName === 'claim-rewards')
      .filter((entry) => entry.state.kind === 'confirmed' && entry.state.block.height > watchedAt + 2);
    expect(claimTxs.length).toBeGreaterThanOrEqual(1);
    for (const entry of claimTxs) {
      const id = `testnet:${alice}:${entry.signed.txId}`;
      const alert = async () => (await alertLog(page)).find((candidate) => candidate.id === id);
      await expect.poll(async () => (await alert())?.phase, { interval: 250 }).toBe('confirmed');
      expect((await alert())?.title).toMatch(/^Claimed 0\.\d{8} sBTC · fee /);
      expect((await alert())?.deliveries.filter((delivery) => delivery.phase === 'confirmed')).toHaveLength(1);
    }
    // Every claim round began with one "claimable" alert, none repeated within a round.
    const told = await titles();
    const rounds = told.filter((title) => title.startsWith('sBTC rewards claimable: '));
    expect(rounds.length).toBeGreaterThanOrEqual(1);
    expect(rounds.length).toBeLessThanOrEqual(told.filter((title) => title.startsWith('Claimed')).length + 1);
    await page.close();
  });
});
