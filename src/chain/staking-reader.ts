import { bondPhase, type BondHolding, type BondSchedule, type StakingPosition } from '../domain/state/staking.ts';
import { decodeStxV3 } from './decode.ts';
import {
  decodeBondPositions,
  decodeBondSchedule,
  decodeDataVarBool,
  decodePoxClock,
  decodeStakingSummary,
} from './decode-staking.ts';
import type { NodeConfig } from './networks.ts';
import { platformFetch, sendRequest } from './outbound.ts';
import { BURN_HEIGHT_DRIVEN } from './node-rest.ts';
import { NodeError } from './rest-client.ts';
import type { HostScheduler } from './scheduler.ts';

/** A principal has a handful of bond positions at most (one per bond period it enrolled in). */
const BOND_PAGE_LIMIT = 50;

/** Reads of one position made at most while its staking route and its balance tell different chains (`position`). */
export const TORN_READS = 3;

/**
 * Whether a read may be kept as it is: anything but STX staked with nothing locked, what a read shows when the lock
 * ended between its staking route and its balance (pox-5 locks what it stakes until the unlock height). Kept, such a
 * read would hide the unlock for good (the next read is compared with nothing locked). The other tear, a stake mined
 * between the two (nothing staked yet, the STX locked), only leaves the stake's alert to the next read.
 */
const toldAsItIs = ({ staked, locked }: StakingPosition): boolean => !(staked > 0n && locked === 0n);

/**
 * A principal's PoX-5 staking from its node: `/extended/v3/principals/{p}/staking`, its bond positions when it has
 * any (and each bond's schedule, `/extended/v3/staking/bonds/{index}`, once per bond: where a position stands comes
 * from it, the API storing `enrolled` to the end), and, for a staker, the v3 STX balance for the lock's burn
 * heights, the node's `/v2/pox` for the cycle arithmetic and the burn height it all was read at, and pox-5's
 * `rewards-paused` (no route of the API says it).
 * Paced by the node's scheduler (the same one as its other requests, so that they share one budget). A node
 * without the staking routes (API 8.x) answers 404: that reads as no staking at all. Every read is driven by the burn
 * height (rewards accrue, bonds open and end, locks end, with no transaction of the principal) and skips the HTTP
 * cache: the balance's ETag does not change when a pox-5 lock ends (node-rest.ts, BURN_HEIGHT_DRIVEN).
 */
export class StakingReader {
  /** Each bond's schedule, as read (or being read): fixed when the bond is set up. */
  private readonly schedules = new Map<number, Promise<BondSchedule | null>>();
  /** The burn height a bond's schedule could last not be had at. */
  private readonly unknownAt = new Map<number, number>();

  constructor(
    private readonly node: NodeConfig,
    private readonly scheduler: HostScheduler,
    private readonly fetchImpl: typeof fetch = platformFetch,
  ) {}

  /**
   * `wasLocked`: the principal's STX were locked at its last read. The clock is then read even when nothing is
   * staked any more, so that a lock gone at its unlock height is told apart from one a re-org took back.
   *
   * A read is several requests, and a block may come between them: the staking route then tells the chain before it
   * and the balance the chain after (staked, but nothing locked, as the lock ends). Such a read is made again, up to
   * `TORN_READS` times in all; the last one is kept whatever it says (the next burn block reads again).
   */
  async position(principal: string, wasLocked = false): Promise<StakingPosition | null> {
    for (let attempt = 1; ; attempt++) {
      const read = await this.readOnce(principal, wasLocked);
      if (read === null || attempt >= TORN_READS || toldAsItIs(read)) return read;
    }
  }

  private async readOnce(principal: string, wasLocked: boolean): Promise<StakingPosition | null> {
    const base = `/extended/v3/principals/${encodeURIComponent(principal)}/staking`;
    const summary = await this.get(base);
    if (summary === null) return null;
    const { staked, rewards, bondCount } = decodeStakingSummary(summary);
    const bondPage = bondCount > 0 ? await this.get(`${base}/bonds?limit=${BOND_PAGE_LIMIT}`) : null;
    const stored = bondPage === null ? [] : decodeBondPositions(bondPage).items;
    const staker = staked > 0n || stored.length > 0 || rewards.accrued > 0n;
    // The lock's heights, read with the position: a balance event (v1 shape) does not carry when the lock was set.
    // Read for anyone: a lock staking does not show (an older PoX's) ends at its burn height too.
    const balance = await this.get(`/extended/v3/principals/${encodeURIComponent(principal)}/balances/stx`);
    const lock = balance === null ? null : decodeStxV3(balance);
    const locked = (lock?.locked ?? 0n) > 0n;
    // Last: its burn height is no lower than the one the answers above were given at.
    const pox = staker || locked || wasLocked ? await this.get('/v2/pox') : null;
    const clock = pox === null ? null : decodePoxClock(pox);
    const rewardsPaused = staker && clock ? await this.rewardsPaused(clock.contractId) : null;
    const bonds = clock === null ? stored : await this.phased(stored, clock.burnHeight);
    return {
      staked,
      rewards,
      bonds,
      clock: clock && { cycle: clock.cycle, startBurnHeight: clock.startBurnHeight, length: clock.length },
      burnHeight: clock?.burnHeight ?? null,
      locked: lock?.locked ?? 0n,
      lockBurnHeight: lock?.lockBurnHeight ?? null,
      unlockBurnHeight: lock?.unlockBurnHeight ?? null,
      rewardsPaused,
    };
  }

  /** Each bond position with its status at `burnHeight`, from its bond's schedule where it can be had. */
  private async phased(stored: readonly BondHolding[], burnHeight: number): Promise<BondHolding[]> {
    return Promise.all(
      stored.map(async (bond) => {
        const schedule = await this.schedule(bond.bondIndex, burnHeight);
        return schedule ? { ...bond, status: bondPhase(bond.status, schedule, burnHeight) } : bond;
      }),
    );
  }

  /**
   * A bond's schedule, read once (it never changes). Null while it cannot be had (the node does not know the bond,
   * answers an error, or a schedule that makes no sense): the position then keeps the status the node stored, the
   * rest of the read stands, and the bond is asked about again at a later burn height, not at every read of this one.
   */
  private async schedule(index: number, burnHeight: number): Promise<BondSchedule | null> {
    if ((this.unknownAt.get(index) ?? -1) >= burnHeight) return null;
    let read = this.schedules.get(index);
    if (!read) {
      read = this.get(`/extended/v3/staking/bonds/${index}`)
        .then((answer) => (answer === null ? null : decodeBondSchedule(answer)))
        .catch(() => null);
      this.schedules.set(index, read);
    }
    const schedule = await read;
    if (schedule === null) {
      if (this.schedules.get(index) === read) this.schedules.delete(index);
      this.unknownAt.set(index, burnHeight);
    }
    return schedule;
  }

  /** pox-5's `rewards-paused` variable (the node's data_var route); null for another PoX or a node that does not say. */
  private async rewardsPaused(contractId: string): Promise<boolean | null> {
    const [address, name] = contractId.split('.');
    if (!address || name !== 'pox-5') return null;
    const answer = await this.get(`/v2/data_var/${address}/${name}/rewards-paused?proof=0`);
    return answer === null ? null : decodeDataVarBool(answer);
  }

  private async get(path: string): Promise<unknown> {
    const response = await this.scheduler.fetch((signal) =>
      sendRequest(
        'chain',
        `${this.node.url}${path}`,
        { signal, headers: this.node.apiKey ? { 'x-api-key': this.node.apiKey } : {}, ...BURN_HEIGHT_DRIVEN },
        this.fetchImpl,
      ),
    );
    if (response.status === 404) return null;
    if (!response.ok) throw new NodeError(`${this.node.name} answered ${response.status} for ${path}`, response.status);
    return (await response.json()) as unknown;
  }
}
