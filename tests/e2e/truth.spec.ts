import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signerManagerOf } from '../../mocks/devnet/pox5-genesis.ts';
import { cycleOf } from '../../mocks/devnet/pox5.ts';
import { SeededRandom } from '../../mocks/devnet/random.ts';
import { shortPrincipal } from '../../src/domain/text/activity-text.ts';
import { itemTag, plainTitle } from '../../src/domain/text/notification-content.ts';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { claimsToTell, toldByStaking, wordProblems, type Expected } from '../monitor/truth/oracle.ts';
import { StakingTimeline } from '../monitor/truth/staking-oracle.ts';
import { advanceCycle } from '../monitor/truth/staking-traffic.ts';
import { Traffic } from '../monitor/truth/traffic.ts';
import { TruthBook } from '../monitor/truth/truth-book.ts';
import { trayProblems } from '../monitor/truth/tray.ts';
import { alertLog, notificationsEverShown, notificationsShown, openWatching, sleep } from './support/alerts.ts';
import { openWorld, type World } from './support/harness.ts';
import { trayOnScreen } from './support/tray.ts';

/**
 * The truth test end to end: the built app in Chromium on the devnet server, the device clock skewed by up to ten
 * minutes and block times lagging by minutes, mixed traffic (PoX-5 staking and reward cycles too) with a re-org, a
 * node outage and a socket drop. The app's inbox (staking's alerts too), its notifications and each address page
 * must equal what the devnet's ledger says.
 */
/** What a run required to be told of staking, so that the seeds together prove something (see the last test). */
const required = { unlocks: 0, claims: 0 };

async function runInChromium(seed: number): Promise<string[]> {
  const random = new SeededRandom(`e2e-truth/${seed}`);
  const lagMs = random.int(1, 8) * 60_000;
  const skewMs = random.int(-600, 600) * 1000;
  const world = await openWorld({ blockMs: null, now: () => Date.now() - lagMs });
  const problems: string[] = [];
  const chain = world.devnet.node.chain;
  const truth = new TruthBook(chain);
  const staking = new StakingTimeline(chain);
  try {
    const traffic = new Traffic(chain, random, { staking: true });
    for (let i = 0; i < 12; i++) await traffic.act();
    chain.mine();
    const people = chain.accounts.people.slice(0, 3).map(({ address, label }) => ({ address, label }));
    // Some of them staked before, and reward cycles went by: their rewards are claimable, their locks end, in the run.
    for (const person of people) if (random.chance(0.5)) await traffic.stake(person.address);
    chain.mine();
    for (let cycles = random.int(1, 2); cycles > 0; cycles--) advanceCycle(chain);
    await world.browser.context.clock.install({ time: Date.now() + skewMs });
    for (const person of people) {
      truth.watch(person.address, person.label, Date.now() + skewMs);
      staking.watch(person.address);
    }
    const page = await openWatching(world.browser.context, world.server.url, people);
    // A stall is a finding: it is told with what differs from the truth, and the run goes on to the full comparison.
    let stalled = false;
    const converge = async (timeoutMs = 90_000) => {
      if (stalled) return;
      const { log, done } = await converged(page, truth, timeoutMs);
      if (done) return;
      stalled = true;
      problems.push(
        `seed ${seed}: the inbox did not reach the truth within ${timeoutMs / 1000} s (at block ${chain.tip.height})`,
      );
      problems.push(...compare(truth.expected(), log, chain, seed), ...undelivered(log, seed));
    };
    await converge();
    staking.settled();
    for (let step = 0; step < 14 && !stalled; step++) {
      const roll = random.next();
      if (roll < 0.45) for (let i = random.int(1, 3); i > 0; i--) await traffic.act();
      else if (roll < 0.65) chain.mine();
      else if (roll < 0.75) advanceCycle(chain);
      else if (roll < 0.85 && chain.tip.height > 4) {
        await converge();
        const depth = random.int(1, 3);
        truth.beforeReorg(depth);
        chain.reorg(depth);
      } else {
        await converge();
        world.devnet.node.outage(600_000);
        truth.outageBegins();
        for (let i = 0; i < 3; i++) await traffic.act();
        chain.mine();
        await sleep(random.int(200, 1500));
        world.devnet.node.outage(0);
        truth.outageEnded();
      }
      if (step === 7) world.devnet.node.outage(1); // a socket drop: the connections cut, the node back at once
    }
    // Then cycles go by with the app caught up: the locks of the run end at their boundaries, with no transaction.
    await converge();
    staking.settled();
    for (let cycles = 0; cycles < 2; cycles++) advanceCycle(chain);
    chain.mine();
    // And a staker with rewards waiting claims them, as a wallet nudges it to (pox-5 refuses it while paused).
    for (const person of people) {
      const position = chain.state.staking.stx.get(person.address);
      if (!position || position.accrued <= position.claimed) continue;
      const rewardCycle = cycleOf(chain.tip.burnHeight + 1) - 1;
      await chain.submit(person.address, { kind: 'pox5-claim', signer: signerManagerOf(chain.accounts), rewardCycle });
    }
    chain.mine();
    if (stalled) return problems;
    const { log } = await converged(page, truth, 60_000);
    problems.push(...compare(truth.expected(), log, chain, seed), ...undelivered(log, seed));
    // Staking's alerts (of no transaction) against the ledger's staking, once the app has told what it must.
    staking.settled();
    const labelOf = (principal: string) => people.find((person) => person.address === principal)?.label ?? principal;
    let stakingLog = await alertLog(page);
    for (
      const deadline = Date.now() + 30_000;
      staking.problems(stakingLog, labelOf).length > 0 && Date.now() < deadline;
    )
      stakingLog = await sleep(100).then(() => alertLog(page));
    problems.push(...staking.problems(stakingLog, labelOf).map((problem) => `seed ${seed}: ${problem}`));
    const unlocks = staking.required.get('unlock') ?? 0;
    const claims = claimsToTell(truth.expected());
    console.log(`[truth] Chromium seed ${seed}: ${unlocks} unlocks and ${claims} claims required`);
    required.unlocks += unlocks;
    required.claims += claims;
    // What the service worker showed, with what is still on screen (headless Chromium closes notifications by itself).
    const { notifications: onScreen, carried: shown } = await notificationsEverShown(page);
    for (const entry of [...log, ...stakingLog.filter((item) => item.txId === null)]) {
      // A stake, update or unstake of the principal's own stays in the inbox: its staking alert tells what it did.
      if (entry.quiet) {
        if (!toldByStaking(chain, entry))
          problems.push(`${entry.title}: kept in the inbox only, no staking alert tells it`);
        continue;
      }
      if (!shown.has(entry.id))
        problems.push(
          `${entry.title}: in the inbox, not among the notifications (told ${entry.deliveries.map((d) => `${d.phase} via ${d.via}`).join(', ')}; ` +
            `on screen: ${onScreen.map((n) => `${n.tag} [${n.ids.length}]`).join(', ')})`,
        );
    }
    // A notification of the alert's own, while it shows, tells its state now: never a revert the chain has since undone
    // (one the system took away meanwhile tells nothing any more).
    const showing = await notificationsShown(page);
    for (const entry of log) {
      const own = showing.find((notification) => notification.tag === itemTag(entry.id));
      if (entry.txId && own && plainTitle(own.title) !== entry.title)
        problems.push(`its notification says "${own.title}", the inbox "${entry.title}"`);
    }
    // What is on screen now: each alert on one notification, never a stale "pending", summaries counted right.
    const labels = new Map(people.map((person) => [person.address, person.label]));
    problems.push(
      ...trayProblems(
        await trayOnScreen(page),
        log.filter((entry) => entry.txId),
        (entry) => `${labels.get(entry.principal)} ${entry.txId?.slice(0, 10)}`,
      ).map((problem) => `seed ${seed}: ${problem}`),
    );
    for (const person of people) problems.push(...(await activityProblems(page, world, person)));
  } finally {
    truth.close();
    staking.close();
    await world.close();
  }
  return problems;
}

/** Waits until the inbox holds exactly the truth's alerts in their states; returns the inbox either way. */
async function converged(
  page: Page,
  truth: TruthBook,
  timeoutMs: number,
): Promise<{ log: InboxEntry[]; done: boolean }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const log = (await answering(alertLog(page), 20_000, 'the page did not answer a read of its inbox')).filter(
      (entry) => entry.txId !== null,
    );
    const expected = truth.expected();
    const phases = new Map(log.map((entry) => [entry.id, entry.phase]));
    const ids = new Set(expected.map((item) => item.id));
    const done =
      log.every((entry) => ids.has(entry.id)) &&
      expected.every((item) => phases.get(item.id) === item.phase || (item.optional && !phases.has(item.id))) &&
      log.every((entry) => !entry.undelivered);
    if (done || Date.now() > deadline) return { log, done };
    await sleep(100);
  }
}

/** The promise's value, or an error saying what hung once it has not settled within the time given. */
function answering<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} within ${timeoutMs / 1000} s`)), timeoutMs);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

/** Alerts stored but never told (nor marked inbox-only): the app owes them a notification. */
function undelivered(log: readonly InboxEntry[], seed: number): string[] {
  return log
    .filter((entry) => entry.undelivered)
    .map((entry) => `seed ${seed}: "${entry.title}" (${entry.phase}) is stored, still waiting to be told`);
}

function compare(
  expected: readonly Expected[],
  log: readonly InboxEntry[],
  chain: World['devnet']['node']['chain'],
  seed: number,
): string[] {
  const problems: string[] = [];
  const byId = new Map(log.map((entry) => [entry.id, entry]));
  const names = new Map([...chain.names].map(([name, owner]) => [owner, name]));
  const labels = new Map(chain.accounts.all.map((account) => [account.address, account.label]));
  const nameOf = (principal: string) =>
    [labels.get(principal), names.get(principal) ?? shortPrincipal(principal)].filter(Boolean).join('|');
  for (const item of expected) {
    const entry = byId.get(item.id);
    if (!entry && item.optional) continue;
    if (!entry)
      problems.push(
        `seed ${seed}: missing alert ${item.txId.slice(0, 10)} for ${labels.get(item.principal)} (${item.phase})`,
      );
    else if (entry.phase !== item.phase)
      problems.push(`seed ${seed}: "${entry.title}" is ${entry.phase}, truth ${item.phase}`);
    else problems.push(...wordProblems(chain, item, entry, nameOf).map((problem) => `seed ${seed}: ${problem}`));
  }
  const ids = new Set(expected.map((item) => item.id));
  for (const entry of log)
    if (!ids.has(entry.id)) problems.push(`seed ${seed}: unexpected alert "${entry.title}" (${entry.phase})`);
  return problems;
}

/** The address page lists the chain's newest transactions for the principal and its pending ones, no other. */
async function activityProblems(
  page: Page,
  world: World,
  person: { address: string; label: string },
): Promise<string[]> {
  const chain = world.devnet.node.chain;
  await page.goto(`${world.server.url}/address/${person.address}`);
  await page.locator('.activity-row').first().waitFor();
  const shown = await page
    .locator('.activity-row')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-tx')));
  const canonical = chain.transactionsOf(person.address).map((entry) => entry.signed.txId);
  const pending = chain.pendingOf(person.address).map((entry) => entry.signed.txId);
  const problems: string[] = [];
  for (const txId of shown)
    if (txId && !canonical.includes(txId) && !pending.includes(txId))
      problems.push(`${person.label}'s page lists ${txId.slice(0, 10)}, which the chain does not hold`);
  for (const txId of [...pending, ...canonical.slice(0, 10)])
    if (!shown.includes(txId)) problems.push(`${person.label}'s page lacks ${txId.slice(0, 10)}`);
  return problems;
}

describe('alerts tell the truth end to end (Chromium, devnet server, skewed clock, lagging blocks)', () => {
  // E2E_TRUTH_SEEDS=4,5,6 runs others (a seed that failed, or a search for seeds that cover more).
  const seeds = process.env['E2E_TRUTH_SEEDS']?.split(',').map(Number) ?? [1, 2, 3];
  for (const seed of seeds) {
    it(`seed ${seed}: inbox, notifications and address pages equal the ledger's truth`, async () => {
      const problems = await runInChromium(seed);
      expect(problems, `seed ${seed}`).toEqual([]);
    });
  }

  it('required, over its seeds, an unlock at a cycle boundary and a reward claim to be told', () => {
    // Seeds chosen so: a change of the traffic that stopped producing them would leave this file proving nothing of them.
    console.log(`[truth] Chromium seeds: ${required.unlocks} unlocks and ${required.claims} claims required`);
    expect(required.unlocks).toBeGreaterThan(0);
    expect(required.claims).toBeGreaterThan(0);
  });
});
