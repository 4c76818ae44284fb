import { formatUnits } from '../amount.ts';
import type { AddressSnapshot } from './snapshot.ts';

/**
 * A principal's PoX-5 staking as the node's `/extended/v3/principals/{p}/staking[/bonds]` and `/v2/pox` tell it:
 * the STX position, its sBTC rewards, bond positions, and the cycle clock the words need. Amounts in base units:
 * micro-STX, and satoshis for sBTC and BTC.
 */
export interface SbtcRewards {
  readonly accrued: bigint;
  readonly claimed: bigint;
  readonly claimable: bigint;
}

/**
 * `rolled_over` (a newer API 9.x, with roll-overs: its bond-rollovers test): the staker moved on, to a stake or a
 * newer bond, and the position holds nothing any more (its `locked` is zero).
 */
export type BondStatus = 'enrolled' | 'running' | 'early_exit' | 'unlocked' | 'rolled_over';

export interface BondHolding {
  readonly bondIndex: number;
  readonly status: BondStatus;
  readonly lockedSats: bigint;
  readonly lockedUstx: bigint;
  readonly rewards: SbtcRewards;
}

/** When a bond's period opens and when its STX unlock, in Bitcoin heights. */
export interface BondSchedule {
  readonly opensBurnHeight: number;
  readonly unlocksBurnHeight: number;
}

/**
 * A bond position's status at a Bitcoin height, from what the node stored of it and its bond's schedule. The API 9.x
 * stores `enrolled` at registration and `early_exit` when the position leaves early, and nothing after: `running` and
 * `unlocked` come from the schedule. A position that left early stays so until the bond ends, its STX locked to then.
 */
export function bondPhase(stored: BondStatus, schedule: BondSchedule, burnHeight: number): BondStatus {
  if (stored === 'rolled_over') return stored;
  if (burnHeight >= schedule.unlocksBurnHeight) return 'unlocked';
  if (stored === 'early_exit' || stored === 'unlocked') return stored;
  return burnHeight >= schedule.opensBurnHeight ? 'running' : 'enrolled';
}

/** Where the chain is in its reward cycles: the current cycle, the burn height it began at, its length. */
export interface CycleClock {
  readonly cycle: number;
  readonly startBurnHeight: number;
  readonly length: number;
}

export interface StakingPosition {
  /** Micro-STX locked in pox-5 STX staking now. */
  readonly staked: bigint;
  readonly rewards: SbtcRewards;
  readonly bonds: readonly BondHolding[];
  /** The clock when read; null when the node did not say (an older node, or nothing staked). */
  readonly clock: CycleClock | null;
  /** The burn height the node was at when this was read; null when it did not say. */
  readonly burnHeight: number | null;
  /**
   * From the STX balance when read: the burn height of the call that last set the lock (stake, update, unstake)
   * and the one it ends at; null when nothing is locked.
   */
  readonly lockBurnHeight: number | null;
  readonly unlockBurnHeight: number | null;
  /** STX locked per the balance: after an unstake it stays locked to its unlock height though no longer staked. */
  readonly locked: bigint;
  /**
   * pox-5's `rewards-paused`, read for a staker: true once the pause admin stopped claims for good (rewards go on
   * accruing). Null where it was not read (nothing staked, or a node without pox-5); absent in snapshots stored
   * before it was read.
   */
  readonly rewardsPaused?: boolean | null;
}

export const SBTC_DECIMALS = 8;
export const SBTC_SYMBOL = 'sBTC';

/** sBTC's token on mainnet and on testnet (the one the devnet pays rewards in): known without asking a node. */
const SBTC_ASSETS: ReadonlySet<string> = new Set([
  'SM3VDXK3WZZSA84XXFKAFAF15NNZX32CTSG82JFQ4.sbtc-token::sbtc-token',
  'ST1F7QA2MDF17S807EPA36TSS8AMEFY4KA9TVGWXT.sbtc-token::sbtc-token',
]);

export const isSbtc = (assetIdentifier: string): boolean => SBTC_ASSETS.has(assetIdentifier);

/** "0.00120000 sBTC": sBTC always shows all eight decimals, so a reward of a few sats never reads as 0. */
export const formatSbtc = (sats: bigint): string => `${plainSats(sats)} ${SBTC_SYMBOL}`;

function plainSats(sats: bigint): string {
  const text = formatUnits(sats, SBTC_DECIMALS);
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(SBTC_DECIMALS, '0')}`;
}

const sum = (values: readonly bigint[]): bigint => values.reduce((total, value) => total + value, 0n);

/** Rewards of the STX position and every bond together: one claim call takes them all. */
export function totalRewards(position: StakingPosition): SbtcRewards {
  const all = [position.rewards, ...position.bonds.map((bond) => bond.rewards)];
  return {
    accrued: sum(all.map((r) => r.accrued)),
    claimed: sum(all.map((r) => r.claimed)),
    claimable: sum(all.map((r) => r.claimable)),
  };
}

/** Whether there is anything to show: STX staked, a bond, or rewards ever earned. */
export const hasStaking = (position: StakingPosition | null | undefined): position is StakingPosition =>
  !!position && (position.staked > 0n || position.bonds.length > 0 || totalRewards(position).accrued > 0n);

/** Whether an address stakes as far as its snapshot says (a position read, or its STX locked by pox-5). */
export const stakes = (snapshot: AddressSnapshot | undefined): boolean =>
  hasStaking(snapshot?.staking) || snapshot?.stx?.poxVersion === 5;

/** Staking now, as the watch list marks it: STX staked, or a bond enrolled or running (ended ones are history). */
export const isStakingNow = (position: StakingPosition | null | undefined): boolean =>
  !!position &&
  (position.staked > 0n || position.bonds.some((bond) => bond.status === 'enrolled' || bond.status === 'running'));

/** The reward cycle a burn height falls in, by the clock's arithmetic. */
export const cycleAt = (clock: CycleClock, burnHeight: number): number =>
  clock.cycle + Math.floor((burnHeight - clock.startBurnHeight) / clock.length);
