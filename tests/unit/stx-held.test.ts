import { describe, expect, it } from 'vitest';
import type { BondHolding, BondStatus, StakingPosition } from '../../src/domain/state/staking.ts';
import { stxHeld } from '../../src/domain/state/stx-held.ts';

const STX = 1_000_000n;
const none = { accrued: 0n, claimed: 0n, claimable: 0n };
const bond = (status: BondStatus, ustx: bigint, bondIndex = 1): BondHolding => ({
  bondIndex,
  status,
  lockedSats: 50_000_000n,
  lockedUstx: ustx,
  rewards: none,
});
const staking = (...bonds: BondHolding[]): StakingPosition => ({
  staked: 0n,
  rewards: none,
  bonds,
  clock: null,
  burnHeight: null,
  lockBurnHeight: null,
  unlockBurnHeight: null,
  locked: 0n,
});
/** A v3 balance as the API gives a bond holder: the bond's STX in no lock, so counted in `available`. */
const balance = (total: bigint, locked = 0n) => ({
  total,
  available: total - locked,
  locked,
  unlockBurnHeight: locked > 0n ? 200 : null,
});

describe('the STX an address can spend', () => {
  it('takes out what its bonds lock until they end, through an early exit, and nothing once they matured', () => {
    const stx = balance(100_000n * STX, 30_000n * STX);
    const bonds = [
      bond('enrolled', 1_000n * STX, 1),
      bond('running', 2_000n * STX, 2),
      bond('early_exit', 4_000n * STX, 3),
    ];
    expect(stxHeld(stx, staking(...bonds, bond('unlocked', 8_000n * STX, 4)))).toEqual({
      total: 100_000n * STX,
      available: 63_000n * STX,
      locked: 30_000n * STX,
      bonded: 7_000n * STX,
      bonds: 3,
    });
    expect(stxHeld(stx, staking(bond('unlocked', 8_000n * STX)))).toMatchObject({
      available: 70_000n * STX,
      bonded: 0n,
    });
    // A position that holds no STX (moved on to a new one, as the API says `rolled_over`) is no bond holding STX.
    expect(stxHeld(stx, staking(bond('rolled_over', 0n), bond('running', 2_000n * STX, 2)))).toMatchObject({
      available: 68_000n * STX,
      bonded: 2_000n * STX,
      bonds: 1,
    });
    expect(stxHeld(stx, undefined)).toMatchObject({ available: 70_000n * STX, bonded: 0n });
    expect(stxHeld(stx, null)).toMatchObject({ available: 70_000n * STX, bonded: 0n });
  });

  it('never says less than nothing available: a bond read before the balance that paid for it', () => {
    const stx = balance(5_000n * STX);
    expect(stxHeld(stx, staking(bond('running', 20_000n * STX)))).toEqual({
      total: 5_000n * STX,
      available: 0n,
      locked: 0n,
      bonded: 20_000n * STX,
      bonds: 1,
    });
  });
});
