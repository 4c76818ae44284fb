import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { alertLog, control, readAll, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';

const STAKE = 60_000_000_000n;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;
/** What the page asked the node about Alice (and the PoX clock) and what it logged, ms from the start: printed on failure. */
const asked: string[] = [];

const chain = () => harness.devnet.node.chain;
const alice = () => chain().accounts.people[0]!.address;
/** The test's own display (not the app's): STX grouped with 2+ decimals. */
const stx = (micro: bigint) =>
  `${(micro / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${(micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0')} STX`;
const mine = () => control(harness.devnet, '/devnet/mine');

/** Polls until `check` holds; says what the page and the ledger hold when it never does. */
async function until(what: string, check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 90_000; !(await check());) {
    if (Date.now() > deadline) {
      const card = await page.locator('.balance-card').textContent();
      const account = chain().state.stx.get(alice());
      const told = (await alertLog(page)).map(({ principal, phase, title }) => ({ principal, phase, title }));
      // What the app judged of Alice's address: which subjects it recorded, told or not.
      const ledgers = await readAll<{
        ledger: { principal: string; seen: Record<string, unknown>; staking?: unknown; counter: number };
      }>(page, 'stacks-watch:alert-ledger', 'by-address');
      const ledger = ledgers.find((record) => record.ledger.principal === alice())?.ledger;
      const judged = {
        counter: ledger?.counter,
        seen: Object.keys(ledger?.seen ?? {}),
        staking: ledger?.staking,
      };
      throw new Error(
        `${what}: asked ${JSON.stringify(asked.slice(-80))}; the page reads ${JSON.stringify(card)}, the ledger locks ${account?.locked ?? 0n} at burn height ${chain().tip.burnHeight}; Alice is ${alice()}; told ${JSON.stringify(told)}; judged ${JSON.stringify(judged, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value))}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a pox-5 lock that ends at its unlock height, in Chromium with its HTTP cache', () => {
  it('shows the STX unlocked and tells "Unlocked" with no transaction of the address, though the node’s ETag stays', async () => {
    page = await harness.browser.context.newPage();
    const started = Date.now();
    page.on('requestfinished', (request) => {
      if (request.url().includes(alice()) || request.url().includes('/v2/pox'))
        void request
          .response()
          .then((response) =>
            asked.push(
              `${Date.now() - started} ${response?.status()} ${request.url().replace(/^.*?\/(extended|v2)/, '/$1')}`,
            ),
          )
          .catch(() => undefined);
    });
    page.on('requestfailed', (request) =>
      asked.push(`${Date.now() - started} failed ${request.url()} ${request.failure()?.errorText}`),
    );
    page.on('console', (message) => asked.push(`${Date.now() - started} console ${message.text()}`));
    await page.goto(harness.server.url);
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    // The app has stored Alice's staking as it was before she stakes (none): her stake is news to it, whichever read
    // after the reload below tells it. Unread, the first read after the stake would be history, told by no "Staked".
    await until('Alice’s staking stored before she stakes', async () =>
      (
        await readAll<{ snapshot: { principal: string; staking?: unknown } }>(
          page,
          'stacks-watch:snapshots',
          'by-principal',
        )
      ).some(({ snapshot }) => snapshot.principal === alice() && snapshot.staking !== undefined),
    );
    await control(harness.devnet, '/devnet/stake', { staker: alice(), amount: STAKE.toString(), cycles: 1 });
    await mine();
    const account = chain().state.stx.get(alice())!;
    expect(account.locked).toBe(STAKE);
    const { burnUnlockHeight: unlockHeight, lockTxId } = account;
    const balanceCard = page.locator('.balance-card');

    await page.goto(`${harness.server.url}/address/${alice()}`);
    const lockedFigure = balanceCard.locator('dd .figure', { hasText: stx(STAKE) });
    await until('the lock shown', async () => (await lockedFigure.count()) === 1);
    // The app has read the stake (its staking alert told it) before the lock runs out: this is a lock the app watched.
    // The page's reload above may cut the read short; the chain waits for the one after it.
    await until('"Staked" told', async () =>
      (await alertLog(page)).some(
        (entry) => entry.principal === alice() && entry.title.startsWith(`Staked ${stx(STAKE)}`),
      ),
    );
    // The browser holds the balance as the node sent it, with the node's ETag: the stake is Alice's newest transaction.
    const path = `/extended/v3/principals/${alice()}/balances/stx`;
    const lockedEtag = (
      await harness.devnet.node.handle({ method: 'GET', url: new URL(path, 'http://devnet'), headers: {} })
    ).headers['etag'];
    expect(lockedEtag).toBeDefined();

    // Blocks with nothing of Alice's, to the lock's unlock height.
    while (chain().tip.burnHeight < unlockHeight) await mine();
    expect(chain().state.stx.get(alice())!.locked).toBe(0n);
    expect(chain().transactionsOf(alice())[0]?.signed.txId).toBe(lockTxId);
    // As the real API's: the lock's end did not change the ETag, so a revalidation would get a 304.
    const unlocked = await harness.devnet.node.handle({
      method: 'GET',
      url: new URL(path, 'http://devnet'),
      headers: { 'if-none-match': lockedEtag! },
    });
    expect(unlocked.status).toBe(304);

    await until('"Unlocked" told', async () =>
      (await alertLog(page)).some((entry) => entry.principal === alice() && entry.title === `Unlocked ${stx(STAKE)}`),
    );
    const balance = chain().state.stx.get(alice())!.balance;
    await until('the STX shown unlocked and available', async () => {
      const locked = await balanceCard.locator('dt', { hasText: /^Locked$/ }).locator('xpath=following-sibling::dd[1]');
      return (
        (await locked.textContent()) === 'none' &&
        (await balanceCard.locator('.stx-available').textContent()) === stx(balance)
      );
    });
    await page.close();
  });
});
