import type { StakingPosition } from '../../src/domain/state/staking.ts';

/** A pox-5 position with nothing staked, no bonds and no rewards, but for what `change` sets. */
export const stakingPosition = (change: Partial<StakingPosition> = {}): StakingPosition => ({
  staked: 0n,
  rewards: { accrued: 0n, claimed: 0n, claimable: 0n },
  bonds: [],
  clock: null,
  burnHeight: null,
  lockBurnHeight: null,
  unlockBurnHeight: null,
  locked: 0n,
  ...change,
});
