import { describe, expect, it } from 'vitest';
import { newLedger, record } from '../../src/domain/alerts/alert-ledger.ts';
import { afterFork, DEEPEST_REORG, forkedFrom, markForked } from '../../src/domain/state/fork-mark.ts';
import { emptySnapshot } from '../../src/domain/state/snapshot.ts';

const BOB = 'ST8KV0GN9Q1T2C8MDD1JVXXW48M6BQTE9264ASRY';

describe('the fork mark a snapshot carries for the alerts', () => {
  it('keeps the lowest re-org height', () => {
    const once = markForked(emptySnapshot(BOB, 'testnet'), 25);
    expect(forkedFrom(once)).toBe(25);
    expect(forkedFrom(markForked(once, 40))).toBe(25);
    expect(forkedFrom(markForked(once, 20))).toBe(20);
    expect(markForked(once, 40)).toBe(once);
  });

  it('reads a damaged mark as none', () => {
    const damaged = { ...emptySnapshot(BOB, 'testnet'), forkedFrom: '25' as unknown as number };
    expect(forkedFrom(damaged)).toBeNull();
    expect(forkedFrom(emptySnapshot(BOB, 'testnet'))).toBeNull();
  });
});

describe('a ledger after a re-org', () => {
  const firstSyncedAt = (height: number) => ({ ...newLedger(BOB, 'testnet', 0), floor: height });

  it('takes what the fork mined at or below the first sync height for news', () => {
    expect(afterFork(firstSyncedAt(25), 25).floor).toBe(24);
    expect(afterFork(firstSyncedAt(25), 30).floor).toBe(25);
  });

  it('leaves the floor where a fork that deep under it is an old one met again', () => {
    // Its floor raised by evictions long after the re-org: what they let go of stays history.
    let ledger = firstSyncedAt(500);
    ledger = record(ledger, '0xabc', 'confirmed', 499, true);
    expect(afterFork(ledger, 500 - DEEPEST_REORG)).toBe(ledger);
    expect(afterFork(ledger, 500 - DEEPEST_REORG + 1).floor).toBe(500 - DEEPEST_REORG);
  });
});
