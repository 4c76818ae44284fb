import type { DevnetChain } from '../../../mocks/devnet/chain.ts';
import type { InboxEntry } from '../../../src/domain/alerts/inbox.ts';
import type { StakingView } from '../../../src/domain/text/staking-view.ts';
import { display } from './oracle.ts';

/**
 * The staking truth, read from the devnet's ledger apart from the app's code: each watched principal's staking as
 * the chain held it after every block, re-org and moment the app was known to be caught up, and from that the
 * staking alerts it must have told (between two caught-up moments) and the ones it may have told (between any two
 * states the chain went through, which a read may have met).
 */

interface StakeState {
  readonly burn: number;
  /** The STX staked in pox-5, as the principal's staking summary says (still locked after an unstake). */
  readonly staked: bigint;
  /** The STX balance's lock, of any PoX version, and the burn height it ends at. */
  readonly locked: bigint;
  readonly unlockHeight: number;
  /** The burn height of the stake, update or unstake that last set the pox-5 position. */
  readonly lockHeight: number | null;
  readonly firstCycle: number | null;
  readonly unlockCycle: number | null;
  /** sBTC sats of the STX position and the bond together: one claim takes them all. */
  readonly claimed: bigint;
  readonly claimable: bigint;
  /** Has a position or rewards: what the staking summary shows (staked, a bond, sBTC ever earned). */
  readonly staker: boolean;
  /** pox-5's `rewards-paused`. */
  readonly paused: boolean;
  /**
   * pox-5's `rewards-paused` as the newest block (or re-org) left it: what the app's read at this burn height met. The
   * devnet's resume (pox-5 has none) switches a pause off between blocks, and nothing on the chain prompts a read of
   * that before the next block: a moment the app had caught up after it may still know the pause.
   */
  readonly pausedAtBlock: boolean;
  /** The principal's bond position: its period, status and the STX bonded beside its BTC. */
  readonly bond: { readonly index: number; readonly status: string; readonly ustx: bigint } | null;
}

interface Point {
  readonly state: StakeState;
  /** The app had caught up with the chain here: what it read is this state. */
  readonly settled: boolean;
  readonly reorg: boolean;
}

type Kind =
  'stake' | 'stake-update' | 'unstake' | 'unlock' | 'claimable' | 'rewards-paused' | 'bond-matured' | 'bond-exited';

interface News {
  readonly kind: Kind;
  readonly title: string;
}

const stx = (micro: bigint) => `${display(micro, 6)} STX`;
const sbtc = (sats: bigint) => `${sats / 100_000_000n}.${(sats % 100_000_000n).toString().padStart(8, '0')} sBTC`;

/** What a person must be told between two reads of the ledger, in the words. */
function newsBetween(a: StakeState, b: StakeState): News[] {
  const news: News[] = [];
  // The first lock ended and a new stake was made since.
  const restaked = a.locked > 0n && b.lockHeight !== null && b.lockHeight >= a.unlockHeight;
  if ((a.staked === 0n || restaked) && b.staked > 0n)
    news.push({ kind: 'stake', title: `Staked ${stx(b.staked)} · from cycle ${b.firstCycle}` });
  else if (a.staked > 0n && b.staked > 0n) {
    if (b.staked > a.staked || b.unlockHeight > a.unlockHeight)
      news.push({ kind: 'stake-update', title: `Stake updated: ${stx(b.staked)} · until cycle ${b.unlockCycle}` });
    else if (b.unlockHeight < a.unlockHeight)
      news.push({ kind: 'unstake', title: `Unstake scheduled: ${stx(b.staked)} unlock at cycle ${b.unlockCycle}` });
  }
  // A bond that ran its term is told in its own words, its STX unlock with it; one that left early, as it left.
  // A position that left early keeps its STX locked to the bond's end, and is told again when they unlock.
  const bond = a.bond && b.bond?.index === a.bond.index && a.bond.status !== 'unlocked' && b.bond;
  const matured = bond && bond.status === 'unlocked';
  if (bond && matured)
    news.push({ kind: 'bond-matured', title: `Bond ${bond.index} matured: ${stx(bond.ustx)} unlocked` });
  else if (bond && bond.status === 'early_exit' && a.bond!.status !== 'early_exit')
    news.push({ kind: 'bond-exited', title: `Bond ${bond.index} exited early: ${stx(bond.ustx)} bonded` });
  if (!matured && a.locked > 0n && ((b.locked === 0n && b.burn >= a.unlockHeight) || restaked))
    news.push({ kind: 'unlock', title: `Unlocked ${stx(a.locked)}` });
  return news;
}

/** A bond's status in the card's words, and what its line says it holds: the amounts its position lists. */
const BOND_WORDS: Record<string, string> = {
  enrolled: 'enrolled, opens at its first cycle',
  running: 'running',
  early_exit: 'exited early',
  unlocked: 'matured, unlocked',
};

const sameWords = (news: News, title: string) =>
  news.kind === 'unstake' ? title.startsWith(`${news.title}, in about `) : title === news.title;

export class StakingTimeline {
  /** How many times each kind of staking news had to be told, as the last `problems` found: what a run proved. */
  readonly required = new Map<Kind, number>();
  /** How many bond holders' cards the last `cardProblems` checked a bond line of: what a run proved of bonds. */
  bondCards = 0;
  private readonly points = new Map<string, Point[]>();
  private readonly stop: () => void;
  private pausedAtBlock: boolean;

  constructor(private readonly chain: DevnetChain) {
    this.pausedAtBlock = chain.state.staking.paused;
    this.stop = chain.subscribe((event) => {
      if (event.type !== 'block' && event.type !== 'reorg') return;
      this.pausedAtBlock = chain.state.staking.paused;
      this.note(false, event.type === 'reorg');
    });
  }

  watch(principal: string): void {
    this.points.set(principal, [{ state: this.read(principal), settled: false, reorg: false }]);
  }

  /** The app has caught up with every watched principal. */
  settled(): void {
    this.note(true, false);
  }

  close(): void {
    this.stop();
  }

  private note(settled: boolean, reorg: boolean): void {
    for (const [principal, points] of this.points) points.push({ state: this.read(principal), settled, reorg });
  }

  private read(principal: string): StakeState {
    const burn = this.chain.tip.burnHeight;
    const book = this.chain.state.staking;
    const position = book.stx.get(principal);
    const bond = book.bondPositions.get(principal);
    const account = this.chain.state.stx.get(principal);
    const accrued = (position?.accrued ?? 0n) + (bond?.accrued ?? 0n);
    const claimed = (position?.claimed ?? 0n) + (bond?.claimed ?? 0n);
    return {
      burn,
      staked: book.lockedStx(principal, burn),
      locked: account?.locked ?? 0n,
      unlockHeight: account?.burnUnlockHeight ?? 0,
      lockHeight: position?.lock.burnHeight ?? null,
      firstCycle: position?.firstRewardCycle ?? null,
      unlockCycle: position?.unlockCycle ?? null,
      claimed,
      claimable: accrued - claimed,
      staker: book.lockedStx(principal, burn) > 0n || bond !== undefined || (position?.accrued ?? 0n) > 0n,
      paused: book.paused,
      pausedAtBlock: this.pausedAtBlock,
      bond: bond ? { index: bond.bondIndex, status: book.bondStatus(bond, burn), ustx: bond.ustx } : null,
    };
  }

  /**
   * Every mismatch between the staking card each watched principal shows now and the ledger: a card for whoever
   * stakes, holds a bond or ever earned rewards, none for anyone else; each bond on its line with its status and the
   * BTC and STX its position lists; no STX said staked for a holder whose balance locks none (a bond-only holder); a
   * bond holder's STX available as the ledger lets it spend them (none of the bond's).
   * The app must have caught up with the chain.
   */
  cardProblems(
    viewOf: (principal: string) => StakingView | null,
    availableOf: (principal: string) => bigint | null,
    labelOf: (principal: string) => string,
  ): string[] {
    const problems: string[] = [];
    this.bondCards = 0;
    for (const principal of this.points.keys()) {
      const who = labelOf(principal);
      const burn = this.chain.tip.burnHeight;
      const book = this.chain.state.staking;
      const state = this.read(principal);
      const view = viewOf(principal);
      const position = book.bondPositions.get(principal);
      if (!state.staker) {
        if (view) problems.push(`${who}: a staking card, though the ledger has no staking (${JSON.stringify(view)})`);
        continue;
      }
      if (!view) {
        problems.push(`${who}: no staking card, though the ledger has ${position ? 'a bond position' : 'staking'}`);
        continue;
      }
      if (state.locked === 0n && state.staked === 0n && view.staked)
        problems.push(`${who}: the card says ${view.staked.amount} staked, the ledger locks none`);
      if (state.staked > 0n && view.staked?.amount !== stx(state.locked > 0n ? state.locked : state.staked))
        problems.push(
          `${who}: the card says ${view.staked?.amount ?? 'nothing'} staked, the ledger ${stx(state.staked)}`,
        );
      if (!position) continue;
      this.bondCards += 1;
      const status = book.bondStatus(position, burn);
      // What the ledger still holds of the bond: it lets no bonded STX be spent, and an early exit took its BTC.
      const bonded = (this.chain.state.stx.get(principal)?.bonded ?? 0n) > 0n;
      const amounts = `${sbtc(position.sats).replace('sBTC', 'BTC')} and ${stx(position.ustx)}`;
      const want = {
        name: `Bond ${position.bondIndex}`,
        status: BOND_WORDS[status]!,
        held: !bonded
          ? `${amounts} released`
          : position.earlyExit
            ? `${stx(position.ustx)} still locked until the bond ends`
            : `${amounts} locked`,
      };
      if (!view.bonds.some((line) => JSON.stringify(line) === JSON.stringify(want)))
        problems.push(
          `${who}: the card's bonds are ${JSON.stringify(view.bonds)}, the ledger's ${JSON.stringify(want)}`,
        );
      // The bond's STX are not to be spent: the balance card's "Available" is what the ledger lets the holder spend.
      const spendable = this.chain.state.available(principal);
      const shown = availableOf(principal);
      if (shown !== spendable)
        problems.push(
          `${who}: the balance card says ${shown === null ? 'nothing' : stx(shown)} available, ` +
            `the ledger lets it spend ${stx(spendable)}`,
        );
    }
    return problems;
  }

  /** Every mismatch between the staking alerts in the inbox (those of no transaction) and the ledger's truth. */
  problems(entries: readonly InboxEntry[], labelOf: (principal: string) => string): string[] {
    const problems: string[] = [];
    this.required.clear();
    for (const [principal, points] of this.points) {
      const who = labelOf(principal);
      const told = entries
        .filter((entry) => entry.principal === principal && entry.txId === null)
        .map((entry) => ({ entry, kind: entry.id.split(':')[2] as Kind }));
      // Any two states in time order may be two reads of the app.
      const possible: News[] = [];
      for (let i = 0; i < points.length; i++)
        for (let j = i + 1; j < points.length; j++) possible.push(...newsBetween(points[i]!.state, points[j]!.state));
      problems.push(...claimableProblems(points, told, who), ...pausedProblems(points, told, who));
      for (const { entry, kind } of told) {
        if (kind === 'claimable' || kind === 'rewards-paused') continue;
        if (!possible.some((news) => news.kind === kind && sameWords(news, entry.title)))
          problems.push(
            `${who}: staking alert "${entry.title}" (${entry.id.split(':').slice(2).join(':')}) is not in the ledger`,
          );
        const phase = kind === 'unlock' || kind === 'bond-matured' ? 'unlocked' : 'locked';
        if (entry.phase !== phase) problems.push(`${who}: "${entry.title}" is ${entry.phase}, should be ${phase}`);
      }
      // Told at most as often as the ledger went from none to some (a stake) or from a lock to none (an unlock).
      for (const kind of ['stake', 'unlock'] as const) {
        const times = points.filter(
          (point, i) => i > 0 && newsBetween(points[i - 1]!.state, point.state).some((n) => n.kind === kind),
        ).length;
        const count = told.filter((item) => item.kind === kind).length;
        if (count > times)
          problems.push(`${who}: ${count} "${kind}" alerts, the ledger did it ${times} times: ${titles(told, kind)}`);
      }
      // Between two moments the app had caught up, what changed must have been told.
      const settled = points.map((point, i) => ({ point, i })).filter(({ point, i }) => point.settled && i > 0);
      for (let s = 1; s < settled.length; s++) {
        const from = settled[s - 1]!;
        const to = settled[s]!;
        const between = points.slice(from.i, to.i + 1);
        const reorged = between.some((point) => point.reorg);
        for (const news of newsBetween(from.point.state, to.point.state)) {
          if (news.kind === 'unlock' && reorged) continue;
          this.required.set(news.kind, (this.required.get(news.kind) ?? 0) + 1);
          const words: News[] = [];
          for (let i = 0; i < between.length; i++)
            for (let j = i + 1; j < between.length; j++)
              words.push(...newsBetween(between[i]!.state, between[j]!.state).filter((n) => n.kind === news.kind));
          if (!told.some(({ entry, kind }) => kind === news.kind && words.some((n) => sameWords(n, entry.title))))
            problems.push(
              `${who}: missing staking alert "${news.title}" (burn heights ${from.point.state.burn}-${to.point.state.burn}); told: ${titles(told)}`,
            );
        }
      }
    }
    return problems;
  }
}

/**
 * Rewards claimable are told once per claim round (the sats claimed so far name it), when the app first reads them
 * above nothing, in the amount it read then: every round that had sBTC claimable before any pause, at a moment the app had caught up
 * must be told, unless it was already claimable when the address was first read (history).
 */
function claimableProblems(points: readonly Point[], told: readonly { entry: InboxEntry; kind: Kind }[], who: string) {
  const problems: string[] = [];
  const firstSettled = points.findIndex((point, i) => point.settled && i > 0);
  // Paused, nothing can be claimed, and pox-5 has no unpause (the devnet's can, for tests): what the app knows of the
  // pause after it is what it read while the principal staked, so rounds must be told only before any pause.
  const firstPause = points.findIndex(({ state }) => state.paused);
  const history = new Set(
    points.slice(0, firstSettled + 1).flatMap(({ state }) => (state.claimable > 0n ? [state.claimed] : [])),
  );
  const rounds = new Map<bigint, Set<string>>();
  for (const { state } of points)
    if (state.claimable > 0n)
      rounds.set(
        state.claimed,
        (rounds.get(state.claimed) ?? new Set()).add(`sBTC rewards claimable: ${sbtc(state.claimable)}`),
      );
  const toldRounds = new Map(
    told
      .filter((item) => item.kind === 'claimable')
      .map((item) => [BigInt(item.entry.id.split(':')[3] ?? -1), item.entry]),
  );
  for (const [claimed, entry] of toldRounds)
    if (!rounds.get(claimed)?.has(entry.title))
      problems.push(`${who}: "${entry.title}" (after ${claimed} sats claimed) is not in the ledger`);
  for (const [i, { state, settled }] of points.entries())
    if (
      settled &&
      i > firstSettled &&
      state.claimable > 0n &&
      (firstPause === -1 || i < firstPause) &&
      !history.has(state.claimed) &&
      !toldRounds.has(state.claimed)
    )
      problems.push(
        `${who}: missing staking alert "sBTC rewards claimable: ${sbtc(state.claimable)}" (after ${state.claimed} sats claimed, burn height ${state.burn}); told: ${titles(told)}`,
      );
  return [...new Set(problems)];
}

/**
 * Rewards paused are told once, to a principal the app read staking while they were not paused: told at most once;
 * only where the ledger went from a staker unpaused to a staker paused (in the sBTC claimable at a paused moment);
 * and always when it did so between two moments the app had caught up, with no re-org between, the first unpaused as
 * its block left it (a resume after that block is read at the next one at the earliest).
 */
function pausedProblems(points: readonly Point[], told: readonly { entry: InboxEntry; kind: Kind }[], who: string) {
  const problems: string[] = [];
  const paused = told.filter((item) => item.kind === 'rewards-paused');
  if (paused.length > 1)
    problems.push(`${who}: ${paused.length} "rewards paused" alerts, at most one: ${titles(paused)}`);
  const earning = points.findIndex(({ state }) => state.staker && !state.paused);
  const after = earning === -1 ? [] : points.slice(earning + 1).filter(({ state }) => state.staker && state.paused);
  const words = new Set(
    after.flatMap(({ state }) => [
      'Staking rewards paused',
      `Staking rewards paused: ${sbtc(state.claimable)} claimable cannot be claimed`,
    ]),
  );
  for (const { entry } of paused) {
    if (!words.has(entry.title)) problems.push(`${who}: "${entry.title}" is not in the ledger`);
    if (entry.phase !== 'locked') problems.push(`${who}: "${entry.title}" is ${entry.phase}, should be locked`);
  }
  const settled = points.map((point, i) => ({ point, i })).filter(({ point, i }) => point.settled && i > 0);
  for (let s = 1; s < settled.length && paused.length === 0; s++) {
    const from = settled[s - 1]!;
    const to = settled[s]!;
    const reorged = points.slice(from.i, to.i + 1).some((point) => point.reorg);
    const { state: a } = from.point;
    const { state: b } = to.point;
    if (!reorged && a.staker && !a.pausedAtBlock && b.staker && b.paused)
      problems.push(`${who}: missing staking alert "Staking rewards paused" (burn heights ${a.burn}-${b.burn})`);
  }
  return problems;
}

const titles = (told: readonly { entry: InboxEntry; kind: Kind }[], kind?: Kind) =>
  JSON.stringify(told.filter((item) => !kind || item.kind === kind).map((item) => item.entry.title));
