import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { cycleOf } from '../../mocks/devnet/pox5.ts';
import { alertLog, control, waitForLive } from './support/alerts.ts';
import { serveAppWithDevnetForFile } from './support/harness.ts';
import { layoutReport, screenshot, screenshotsEverywhere } from './support/layout.ts';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1366, height: 900 };
const STAKE = 60_000_000_000n;

const harness = serveAppWithDevnetForFile({ blockMs: null, shell: true });
let page: Page;

const chain = () => harness.devnet.node.chain;
const alice = () => chain().accounts.people[0]!.address;
/** The test's own display (not the app's): sBTC with all eight decimals, STX grouped with 2+ decimals. */
const sbtc = (sats: bigint) => `${sats / 100_000_000n}.${(sats % 100_000_000n).toString().padStart(8, '0')} sBTC`;
const stx = (micro: bigint) =>
  `${(micro / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${(micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0')} STX`;
const mine = () => control(harness.devnet, '/devnet/mine');
const titles = async () => (await alertLog(page)).filter((entry) => entry.principal === alice()).map((e) => e.title);
/** What the app keeps of a principal's staking (its snapshot in IndexedDB), as text for a failure message. */
const appStaking = (principal = alice()): Promise<string> =>
  page.evaluate(`new Promise((resolve) => {
    const open = indexedDB.open('stacks-watch:snapshots');
    open.onsuccess = () => {
      const db = open.result;
      const names = [...db.objectStoreNames];
      const request = db.transaction(names[0]).objectStore(names[0]).get('${principal}');
      request.onsuccess = () => { db.close(); resolve(JSON.stringify(request.result?.snapshot?.staking ?? null, (k, v) => typeof v === 'bigint' ? v.toString() : v)); };
    };
  })`);

/**
 * Polls the app's inbox for `title`; says what it holds when it never comes. The deadline is the suite's ceiling for a
 * hang (Playwright's own here), not a verdict on speed: 20 s was outlived under a load of 20.
 */
async function toldEventually(title: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  // A transaction's alert ends with its fee.
  while (!(await titles()).some((told) => told.replace(/ · fee .*$/, '') === title)) {
    if (Date.now() > deadline)
      throw new Error(
        `never told "${title}"; the inbox holds ${JSON.stringify(await titles())}; the app's staking: ${await appStaking()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('staking on the address page, from the devnet ledger', () => {
  it('shows a staker’s position and claimable sBTC, marks its row, and tells the rewards once', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    // The app's first read of Alice's staking is history (never told): she stakes once the node has answered it.
    let stakingRead = false;
    const stop = harness.devnet.node.observe((request, response) => {
      if (request.url.pathname === `/extended/v3/principals/${alice()}/staking` && response.status === 200)
        stakingRead = true;
    });
    await page.getByRole('button', { name: 'Add the demo accounts' }).click();
    await waitForLive(page);
    await expect.poll(() => stakingRead).toBe(true);
    stop();

    await control(harness.devnet, '/devnet/stake', { staker: alice(), amount: STAKE.toString(), cycles: 3 });
    await mine();
    await control(harness.devnet, '/devnet/cycles', { count: 2 });
    await mine();
    const position = chain().state.staking.stx.get(alice())!;
    expect(position.accrued).toBeGreaterThan(0n);
    const claimable = sbtc(position.accrued - position.claimed);
    const unlockCycle = cycleOf(chain().state.stx.get(alice())!.burnUnlockHeight);

    const row = page.locator('.watch-row').filter({ has: page.getByText('Alice', { exact: true }) });
    await row.locator('.badge-staking').waitFor();
    await toldEventually(`sBTC rewards claimable: ${claimable}`);

    await page.setViewportSize(PHONE);
    await screenshot(page, 'staking-row-390x844');
    await page.setViewportSize(DESKTOP);
    await page.goto(`${harness.server.url}/address/${alice()}`);
    const card = page.locator('.staking-card');
    await card.locator('.staking-claimable', { hasText: claimable }).waitFor();
    expect(await card.textContent()).toContain(`${stx(STAKE)} until cycle ${unlockCycle}`);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'staking-card-1366x900');
    await page.setViewportSize(PHONE);
    await card.scrollIntoViewIfNeeded();
    expect((await layoutReport(page)).overflow).toBe(0);
    await screenshot(page, 'staking-card-390x844');

    // A claim is told once, and the card follows it.
    await control(harness.devnet, '/devnet/claim', { staker: alice() });
    await mine();
    const claimed = sbtc(chain().state.staking.stx.get(alice())!.claimed);
    await toldEventually(`Claimed ${claimed}`);
    await card.locator('.staking-claimable', { hasText: sbtc(0n) }).waitFor();
    // Its row says what it was in words: rewards, and where they came from; the call's name only in its detail.
    const signer = chain().state.staking.stx.get(alice())!.signer;
    const claimRow = page.locator('.activity-row').filter({ hasText: `Claimed ${claimed}` });
    await claimRow.waitFor();
    expect(await claimRow.locator('.activity-meta').textContent()).toMatch(
      new RegExp(`^Staking rewards from ${signer.slice(0, 6)}…${signer.split('.')[0]!.slice(-4)}\\.pox5-signer · `),
    );
    expect(await claimRow.textContent()).not.toMatch(/claim-rewards|via /);
    await screenshotsEverywhere(page, 'claim-row', { show: claimRow });
    await claimRow.getByRole('button', { name: `Claimed ${claimed}` }).click();
    const call = claimRow.locator('.tx-detail dt', { hasText: /^Call$/ }).locator('xpath=following-sibling::dd[1]');
    expect(await call.textContent()).toBe(`Reward claim${signer}.claim-rewards`);
    expect(await call.locator('code.detail-line').textContent()).toBe(`${signer}.claim-rewards`);
    await screenshotsEverywhere(page, 'claim-detail', { show: call });
    await page.setViewportSize(DESKTOP);
    await mine();
    await mine();
    const told = await titles();
    expect(told.filter((title) => title.startsWith('Claimed'))).toHaveLength(1);
    expect(told.filter((title) => title.startsWith('sBTC rewards claimable'))).toHaveLength(1);
    await page.close();
  });

  it('says once, above the balance and staking cards, how old their figures are while the node is down', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(`${harness.server.url}/address/${alice()}`);
    const card = page.locator('.staking-card');
    await card.locator('.staking-claimable').waitFor();
    // What the page says of its figures' age, all at once: where, how often, in which words.
    const said = () =>
      page.evaluate(() => {
        const notes = [...document.querySelectorAll('.address-screen .freshness:not(.live)')];
        const note = notes[0]?.getBoundingClientRect();
        const balance = document.querySelector('.balance-card')?.getBoundingClientRect();
        return {
          notes: notes.map((element) => element.textContent ?? ''),
          inCards: document.querySelectorAll('.balance-card .freshness, .staking-card .freshness').length,
          aboveTheCards: note !== undefined && balance !== undefined && note.bottom <= balance.top,
        };
      });
    expect((await said()).notes).toEqual([]);
    await control(harness.devnet, '/devnet/outage', { ms: 600_000 });
    try {
      // One line for every card, before the first of them: neither card passes for current beside the other, and
      // the line is not said twice down a phone's screen.
      await expect.poll(said).toEqual({
        notes: [expect.stringMatching(/^Last updated (just now|\d+ min ago) — node unreachable\.$/)],
        inCards: 0,
        aboveTheCards: true,
      });
      await screenshotsEverywhere(page, 'staking-card-node-down', {
        show: page.locator('.address-stale'),
        check: async () => expect((await layoutReport(page)).overflow).toBe(0),
      });
    } finally {
      await control(harness.devnet, '/devnet/outage', { ms: 0 });
    }
    await expect.poll(async () => (await said()).notes).toEqual([]);
    await page.close();
  });

  it('tells a staker once that rewards are paused, with what is left to claim, and says so on the card', async () => {
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(`${harness.server.url}/address/${alice()}`);
    await waitForLive(page);
    // Rewards accrue a cycle more (the card shows them: the app has read them), then the pause admin stops claims.
    await control(harness.devnet, '/devnet/cycles', { count: 1 });
    await mine();
    const accrued = chain().state.staking.stx.get(alice())!;
    await page
      .locator('.staking-card .staking-claimable', { hasText: sbtc(accrued.accrued - accrued.claimed) })
      .waitFor();
    await control(harness.devnet, '/devnet/staking/pause');
    await mine();
    expect(chain().state.staking.paused).toBe(true);
    const position = chain().state.staking.stx.get(alice())!;
    const waiting = sbtc(position.accrued - position.claimed);
    await toldEventually(`Staking rewards paused: ${waiting} claimable cannot be claimed`);
    const card = page.locator('.staking-card');
    await card
      .getByRole('status')
      .filter({ hasText: /^Rewards paused on the chain/ })
      .waitFor();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'staking-paused-1366x900');
    await page.setViewportSize(PHONE);
    // The note into the middle of the screen: the alerts' toast sits at the bottom.
    await card.getByRole('status').evaluate((note) => note.scrollIntoView({ block: 'center' }));
    expect((await layoutReport(page)).overflow).toBe(0);
    await screenshot(page, 'staking-paused-390x844');
    await mine();
    await mine();
    expect((await titles()).filter((title) => title.startsWith('Staking rewards paused'))).toHaveLength(1);
    await page.close();
  });

  it('shows a bond while it runs with the row marked, and once matured what it held as the node lists it, the mark gone', async () => {
    const bob = chain().accounts.people[1]!.address;
    page = await harness.browser.context.newPage();
    await page.setViewportSize(DESKTOP);
    await page.goto(harness.server.url);
    await waitForLive(page);
    await control(harness.devnet, '/devnet/staking/bond', { allowlist: [{ staker: bob, maxSats: '100000000' }] });
    await mine();
    const bond = [...chain().state.staking.bonds.values()].at(-1)!;
    await control(harness.devnet, '/devnet/staking/bond-register', {
      staker: bob,
      index: bond.index,
      ustx: '20000000000',
      type: 'l1',
      sats: '50000000',
    });
    await mine();
    const row = page.locator('.watch-row').filter({ has: page.getByText('Bob', { exact: true }) });
    await row.locator('.badge-staking').waitFor();

    await page.goto(`${harness.server.url}/address/${bob}`);
    const card = page.locator('.staking-card');
    const bondLine = card.locator('.staking-bonds li', { hasText: `Bond ${bond.index}` });
    const running = new RegExp(`Bond ${bond.index} · [^·]+ · 0\\.50000000 BTC and 20,000\\.00 STX locked`);
    for (const deadline = Date.now() + 90_000; ;) {
      const text = await card.textContent({ timeout: 1_000 }).catch(() => null);
      if (text && running.test(text)) break;
      if (Date.now() > deadline)
        throw new Error(`the card reads ${JSON.stringify(text)}; the app keeps ${await appStaking(bob)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Bob stakes no STX of his own (the ledger says so): the bond's 20,000 STX, in no balance lock (as the API shows
    // them), are told on the bond's line only, never as staked.
    expect(chain().state.stx.get(bob)?.locked).toBe(0n);
    expect(chain().state.staking.lockedStx(bob, chain().tip.burnHeight)).toBe(0n);
    expect(
      await card
        .locator('dt', { hasText: /^Staked$/ })
        .locator('xpath=following-sibling::dd[1]')
        .textContent(),
    ).toBe('none now');
    // Nor can he spend them: the balance card's "Available" is what the ledger lets him spend (the API's `available`
    // counts the bond's STX), and they are said as locked in a bond.
    const balanceCard = page.locator('.balance-card');
    /** The ledger's spendable STX as the whole text of the card's figure. */
    const spendable = () => new RegExp(`^${stx(chain().state.available(bob)).replace(/\./g, '\\.')}$`);
    expect(chain().state.available(bob)).toBeLessThan(chain().state.stx.get(bob)!.balance);
    await balanceCard.locator('.stx-available', { hasText: spendable() }).waitFor();
    await balanceCard.locator('.stx-bonded', { hasText: /^20,000\.00 STX$/ }).waitFor();
    await balanceCard.scrollIntoViewIfNeeded();
    await screenshot(page, 'staking-bond-balance-1366x900');
    await page.setViewportSize(PHONE);
    await balanceCard.scrollIntoViewIfNeeded();
    expect((await layoutReport(page)).overflow).toBe(0);
    await screenshot(page, 'staking-bond-balance-390x844');
    await page.setViewportSize(DESKTOP);
    // The bond runs its cycles; its STX unlock at its burn height, with no transaction of Bob's.
    await control(harness.devnet, '/devnet/cycles', { count: 16 });
    await mine();
    const position = chain().state.staking.bondPositions.get(bob)!;
    expect(chain().state.staking.bondStatus(position, chain().tip.burnHeight)).toBe('unlocked');
    await bondLine.filter({ hasText: 'matured, unlocked · 0.50000000 BTC and 20,000.00 STX released' }).waitFor();
    // Now his to spend: the balance card says all of it available, nothing in bonds.
    expect(chain().state.available(bob)).toBe(chain().state.stx.get(bob)!.balance);
    await balanceCard.locator('.stx-available', { hasText: spendable() }).waitFor();
    expect(await balanceCard.locator('.stx-bonded').count()).toBe(0);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'staking-bond-matured-1366x900');
    await page.setViewportSize(PHONE);
    await card.scrollIntoViewIfNeeded();
    expect((await layoutReport(page)).overflow).toBe(0);
    await screenshot(page, 'staking-bond-matured-390x844');

    await page.getByRole('link', { name: 'Stacks Watch' }).click();
    await row.waitFor();
    await expect.poll(() => row.locator('.badge-staking').count()).toBe(0);
    await page.close();
  });
});
