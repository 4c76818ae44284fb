import { describe, expect, it } from 'vitest';
import { newLedger, record } from '../../src/domain/alerts/alert-ledger.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import type { StakingPosition } from '../../src/domain/state/staking.ts';
import { judgeStaking } from '../../src/notify/staking-alerts.ts';

const STAKER = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const position = (change: Partial<StakingPosition> = {}): StakingPosition => ({
  staked: 0n,
  rewards: { accrued: 0n, claimed: 0n, claimable: 0n },
  bonds: [],
  clock: { cycle: 142, startBurnHeight: 110, length: 10 },
  burnHeight: 112,
  locked: 0n,
  lockBurnHeight: null,
  unlockBurnHeight: null,
  ...change,
});
const staked = position({
  staked: 60_000_000_000n,
  locked: 60_000_000_000n,
  lockBurnHeight: 112,
  unlockBurnHeight: 125,
});
/** A ledger something was recorded in: an address past its first sync. */
const known = record(newLedger(STAKER, 'testnet', 0), '0xabc', 'confirmed', 10, 'history');

const judged = (
  start = known,
  before: StakingPosition | null,
  after: StakingPosition,
  burnHeight = after.burnHeight,
) => {
  const told: string[] = [];
  const ledger = judgeStaking({ before, after, burnHeight }, start, DEFAULT_RULES, (subject) => told.push(subject));
  return { ledger, told };
};

describe('staking judged against the position the alert ledger last judged', () => {
  it('tells the unlock from the ledger’s position when the snapshot’s is older than the stake it told', () => {
    const stake = judged(known, position(), staked);
    expect(stake.told).toEqual(['stake:143:143:125']);
    // The snapshot was not written before the app closed: its position is the one from before the stake.
    const unlock = judged(stake.ledger, position(), position({ burnHeight: 125 }));
    expect(unlock.told).toEqual(['unlock:125']);
  });

  it('leaves the ledger as it is for a read that differs only in the burn height it was read at', () => {
    const { ledger } = judged(known, position(), staked);
    const again = judged(ledger, staked, { ...staked, burnHeight: 118 });
    expect(again.ledger).toBe(ledger);
    expect(again.told).toEqual([]);
  });

  it('leaves a ledger nothing was recorded in as it is when there is no news, so a first sync still baselines', () => {
    const fresh = newLedger(STAKER, 'testnet', 0);
    expect(judged(fresh, null, staked).ledger).toBe(fresh);
    expect(judged(fresh, staked, { ...staked, burnHeight: 118 }).ledger).toBe(fresh);
  });
});
