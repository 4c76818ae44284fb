import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { cycleOf } from '../../mocks/devnet/pox5.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { SBTC_CLAIMABLE_MINIMUM } from '../../src/domain/alerts/staking-news.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { enrolInNewBond, rig, serveDevnetThroughMsw, type Rig } from './harness.ts';
import { memoryTray } from './truth/tray.ts';

serveDevnetThroughMsw();

const STAKE = 60_000_000_000n;
let run = 0;

/** The test's own display of amounts (not the app's): grouped whole part, STX with 2+ decimals, sBTC with all 8. */
const stx = (micro: bigint) => {
  const whole = (micro / 1_000_000n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (micro % 1_000_000n).toString().padStart(6, '0').replace(/0+$/, '').padEnd(2, '0');
  return `${whole}.${fraction} STX`;
};
const sbtc = (sats: bigint) => `${sats / 100_000_000n}.${(sats % 100_000_000n).toString().padStart(8, '0')} sBTC`;

/** The devnet, its monitor following staking, and the real alerter over fresh stores, watching Alice. */
async function staker(minimumSats?: bigint) {
  const id = ++run;
  const inbox = new Inbox(createStore(`staking-inbox-${id}`, 'alerts'));
  const settings = new AlertSettingsStore(createStore(`staking-settings-${id}`, 'records'));
  const book: { of?: Rig['book'] } = {};
  const tray = memoryTray(inbox);
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`staking-ledgers-${id}`, 'by-address')),
    inbox,
    settings,
    watched: (network) => (network === 'testnet' ? { addedAt: 0 } : undefined),
    snapshot: (principal) => book.of?.get(principal),
    text: { label: () => 'Alice', nameOf: () => null, token: () => undefined },
    deliver: tray.deliver,
  });
  const r = rig({ sink: alerter, staking: true });
  book.of = r.book;
  const chain = r.devnet.chain;
  const alice = chain.accounts.people[0]!.address;
  if (minimumSats !== undefined)
    await settings.setRules('testnet', alice, {
      ...DEFAULT_RULES,
      minimums: { [SBTC_CLAIMABLE_MINIMUM]: minimumSats },
    });
  r.monitor.start([alice]);
  await r.until(alice, (snapshot) => snapshot.staking !== undefined);
  const titles = () =>
    inbox
      .list()
      .filter((entry) => entry.principal === alice)
      .map((entry) => entry.title);
  /** Waits until the alerts told include `title` (a transaction's with its fee after it), the monitor and alerter idle. */
  const told = async (title: string | RegExp) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      await r.monitor.settled();
      await alerter.idle();
      if (titles().some((t) => (typeof title === 'string' ? t.replace(/ · fee .*$/, '') === title : title.test(t))))
        return;
      if (Date.now() > deadline) throw new Error(`never told "${String(title)}"; told: ${JSON.stringify(titles())}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const mine = async (count = 1) => {
    await r.control('/devnet/mine', { count });
    await r.monitor.settled();
    await alerter.idle();
  };
  /** The notifications shown, in order. */
  const { shown } = tray;
  return { r, chain, alice, titles, told, mine, alerter, inbox, shown };
}

describe('PoX-5 staking alerts, judged against the devnet ledger', () => {
  it('tells a stake with its first cycle, rewards once claimable, a claim once, an unstake and the unlock at its boundary', async () => {
    const { r, chain, alice, titles, told, mine, inbox, shown } = await staker();
    expect(titles()).toEqual([]);

    await r.control('/devnet/stake', { staker: alice, amount: STAKE.toString(), cycles: 3 });
    await mine();
    const stakeTx = chain.transactionsOf(alice)[0]!;
    expect(stakeTx.state.kind === 'confirmed' && stakeTx.state.outcome.status).toBe('success');
    const stakedIn = stakeTx.state.kind === 'confirmed' ? cycleOf(stakeTx.state.block.burnHeight) : -1;
    await told(`Staked ${stx(STAKE)} · from cycle ${stakedIn + 1}`);

    // The first cycle of the stake ends: its rewards become claimable, with no transaction of Alice.
    await r.control('/devnet/cycles', { count: 2 });
    await mine();
    const position = () => chain.state.staking.stx.get(alice)!;
    expect(position().accrued).toBeGreaterThan(0n);
    await told(/^sBTC rewards claimable: /);
    const claimable = titles().filter((title) => title.startsWith('sBTC rewards claimable'));
    expect(claimable).toHaveLength(1);
    expect(claimable[0]).toBe(`sBTC rewards claimable: ${sbtc(position().accrued - position().claimed)}`);

    const before = position().accrued;
    await r.control('/devnet/claim', { staker: alice });
    await mine();
    expect(position().claimed).toBe(before);
    // The claim is the staker's own transaction: its alert says what it paid.
    await told(`Claimed ${sbtc(before)}`);
    await mine(3);
    expect(titles().filter((title) => title.startsWith('Claimed'))).toHaveLength(1);

    await r.control('/devnet/unstake', { staker: alice });
    await mine();
    const unlockCycle = cycleOf(chain.state.stx.get(alice)!.burnUnlockHeight);
    await told(
      new RegExp(`^Unstake scheduled: ${stx(STAKE).replace('.', '\\.')} unlock at cycle ${unlockCycle}, in about `),
    );

    // The lock ends at a burn height, with no transaction of the address.
    const unlockAt = chain.state.stx.get(alice)!.burnUnlockHeight;
    while (chain.tip.burnHeight < unlockAt) await mine();
    await told(`Unlocked ${stx(STAKE)}`);
    await mine(2);
    expect(titles().filter((title) => title.startsWith('Unlocked'))).toHaveLength(1);
    expect(titles().filter((title) => /^Staked \d/.test(title))).toHaveLength(1);
    // One act, one notification: the stake and the unstake calls are in the inbox, told by their staking alerts.
    const calls = inbox
      .list()
      .filter((entry) => entry.txId !== null && /^(Staked STX|Unstake requested)/.test(entry.title));
    expect(calls.map((entry) => entry.title.replace(/ · fee .*$/, '')).sort()).toEqual([
      'Staked STX',
      'Unstake requested',
    ]);
    for (const call of calls) {
      expect(call.deliveries.length).toBeGreaterThan(0);
      expect(call.deliveries.filter((delivery) => delivery.via !== 'inbox')).toEqual([]);
    }
    const positions = inbox
      .list()
      .filter((entry) => entry.txId === null && /^(Staked |Unstake scheduled: |Unlocked )/.test(entry.title));
    expect(positions).toHaveLength(3);
    // Each shown once, on its own or, among the run's many alerts in a minute, inside a summary.
    for (const entry of positions) expect(entry.deliveries.map((delivery) => delivery.via)).not.toContain('inbox');
    for (const entry of positions) expect(entry.deliveries).toHaveLength(1);
    expect(shown.some(({ title }) => /pox-5\.(stake|unstake)/.test(title))).toBe(false);
    expect(r.problems).toEqual([]);
  });

  it('tells the unlock once after a restart whose stored snapshot still held the position from before the stake', async () => {
    const { r, chain, alice, titles, told, mine } = await staker();
    const beforeStake = r.book.get(alice)!.staking!;
    await r.control('/devnet/stake', { staker: alice, amount: STAKE.toString(), cycles: 1 });
    await mine();
    await told(/^Staked \d/);
    // The tab closes before its snapshot was written with the stake's position (snapshots are written behind the
    // changes; what the alerts told is stored first). The lock runs out while the app is closed.
    r.book.update(alice, 'testnet', (snapshot) => ({ ...snapshot, staking: beforeStake }));
    const reopened = r.reopen();
    const unlockAt = chain.state.stx.get(alice)!.burnUnlockHeight;
    while (chain.tip.burnHeight < unlockAt) chain.mine();
    expect(chain.state.stx.get(alice)!.locked).toBe(0n);
    reopened.start([alice]);
    await told(`Unlocked ${stx(STAKE)}`);
    await mine(2);
    expect(titles().filter((title) => title.startsWith('Unlocked'))).toEqual([`Unlocked ${stx(STAKE)}`]);
    expect(titles().filter((title) => /^Staked \d/.test(title))).toHaveLength(1);
    expect(r.problems).toEqual([]);
  });

  it('tells a bond that matured, and one left early, once each, and the STX of the one left early unlocking at its end', async () => {
    const { r, chain, alice, titles, told, mine } = await staker();
    const bonded = 20_000_000_000n;
    /** Alice enrols 0.5 BTC locked on Bitcoin and 20,000 STX in the next bond the admin sets up. */
    const enrol = async () => {
      const bond = await enrolInNewBond(r, alice, { ustx: bonded, mine });
      expect(chain.state.staking.bondPositions.get(alice)?.bondIndex).toBe(bond.index);
      // The app has read the position while it is enrolled, as a person watching all along would have.
      await r.until(alice, (snapshot) => snapshot.staking?.bonds.some((b) => b.bondIndex === bond.index) === true);
      return bond;
    };
    const first = await enrol();
    // The bond runs its twelve cycles and its STX unlock at its burn height, with no transaction of Alice.
    await r.control('/devnet/cycles', { count: 16 });
    await mine();
    expect(chain.state.staking.bondStatus(chain.state.staking.bondPositions.get(alice)!, chain.tip.burnHeight)).toBe(
      'unlocked',
    );
    await told(`Bond ${first.index} matured: ${stx(bonded)} unlocked`);
    await mine(2);
    // Told once: the bond's words, not a second "Unlocked" for the same STX.
    expect(titles().filter((title) => title.startsWith('Bond') || title.startsWith('Unlocked'))).toEqual([
      `Bond ${first.index} matured: ${stx(bonded)} unlocked`,
    ]);

    const second = await enrol();
    await r.control('/devnet/staking/early-exit', { staker: alice });
    await mine();
    expect(chain.state.staking.bondPositions.get(alice)?.earlyExit).toBe(true);
    await told(`Bond ${second.index} exited early: ${stx(bonded)} bonded`);
    await mine(2);
    expect(titles().filter((title) => title.includes('exited early'))).toHaveLength(1);
    // Its STX stay locked to the bond's end (pox-5), and are told as they unlock then, once.
    expect(chain.state.available(alice)).toBe(chain.state.stx.get(alice)!.balance - bonded);
    await r.control('/devnet/cycles', { count: 16 });
    await mine();
    expect(chain.state.available(alice)).toBe(chain.state.stx.get(alice)!.balance);
    await told(`Bond ${second.index} matured: ${stx(bonded)} unlocked`);
    await mine(2);
    expect(
      titles()
        .filter((title) => title.startsWith(`Bond ${second.index}`))
        .sort(),
    ).toEqual([
      `Bond ${second.index} exited early: ${stx(bonded)} bonded`,
      `Bond ${second.index} matured: ${stx(bonded)} unlocked`,
    ]);
    expect(r.problems).toEqual([]);
  });

  it('keeps quiet about claimable rewards below the threshold the user set', async () => {
    const { r, chain, alice, titles, told, mine } = await staker(10n ** 12n);
    await r.control('/devnet/stake', { staker: alice, amount: STAKE.toString(), cycles: 3 });
    await mine();
    await told(/^Staked \d/);
    await r.control('/devnet/cycles', { count: 3 });
    await mine();
    expect(chain.state.staking.stx.get(alice)!.accrued).toBeGreaterThan(0n);
    expect(titles().filter((title) => title.startsWith('sBTC rewards claimable'))).toEqual([]);
  });

  it('names a transaction the miners skipped as problematic, fee and all, where a failure is worded', async () => {
    const { r, chain, alice, mine, inbox, alerter } = await staker();
    const bob = chain.accounts.people[1]!.address;
    const { tx_id: txId } = await r.control('/devnet/transfer', { sender: alice, recipient: bob, amount: '5000000' });
    await r.control('/devnet/problematic', { tx_id: txId });
    await mine();
    const entry = chain.tx(String(txId))!;
    expect(entry.state.kind === 'confirmed' && entry.state.outcome.status).toBe('problematic_skipped');
    const id = `testnet:${alice}:${String(txId)}`;
    const deadline = Date.now() + 10_000;
    while (inbox.get(id)?.phase !== 'failed' && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      await r.monitor.settled();
      await alerter.idle();
    }
    const alert = inbox.get(id);
    expect(alert?.title).toBe(`Transfer skipped as problematic · fee ${stx(entry.signed.fee)}`);
    expect(alert?.body).toContain('Miners skipped it as problematic: nothing moved, only the fee was paid.');
  });
});
