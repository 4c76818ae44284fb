import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  historyRows,
  matchesFilter,
  readFilter,
  signedAmounts,
  unreadNewer,
  type AwayMark,
} from '../../src/domain/history/history-view.ts';
import type { Activity, Movement } from '../../src/domain/state/snapshot.ts';

const ME = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const BOB = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC';
const GOLD = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM.watch-gold::gold';
const OWL = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM.stacks-owls::owl';

const tx = (n: number, fields: Partial<Activity> = {}): Activity => ({
  txId: `0x${n.toString(16).padStart(64, '0')}`,
  status: 'success',
  kind: 'token_transfer',
  counterparty: BOB,
  stxNet: 1_000_000n,
  fee: 300n,
  memo: null,
  contractCall: null,
  blockHeight: n,
  time: 1_700_000_000 + n * 10,
  sender: BOB,
  ...fields,
});
const move = (fields: Partial<Movement>): Movement => ({
  type: 'stx',
  assetIdentifier: 'STX',
  kind: 'transfer',
  sender: BOB,
  recipient: ME,
  amount: 1n,
  ...fields,
});
const none = new Map<string, { mark: AwayMark; activity: Activity | null }>();
const ids = (rows: { activity: Activity }[]) => rows.map((row) => row.activity.blockHeight ?? `p${row.activity.time}`);

describe('the full history’s rows', () => {
  it('lists every transaction once, newest first, whatever source holds it and in whatever order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 80 }),
        fc.integer({ min: 0, max: 80 }),
        (heights, recentCount, overlap) => {
          const all = heights.map((height) => tx(height));
          const recent = all.slice(0, recentCount);
          const kept = all.slice(Math.max(0, recentCount - overlap));
          const rows = historyRows({ pending: [], recent, kept: [...kept].reverse(), away: none });
          expect(ids(rows)).toEqual(
            [...heights].sort((a, b) => b - a).filter((h) => all.some((a) => a.blockHeight === h)),
          );
        },
      ),
    );
  });

  it('keeps the events the device read when the engine’s copy of the same transaction has none', () => {
    const movements = [move({ type: 'ft', assetIdentifier: GOLD, amount: 5n })];
    const rows = historyRows({
      pending: [],
      recent: [tx(3, { kind: 'contract_call' })],
      kept: [tx(3, { kind: 'contract_call', movements, assets: [] })],
      away: none,
    });
    expect(rows[0]!.activity.movements).toEqual(movements);
  });

  it('keeps a reverted transaction in its place by height, and a dropped one where its time puts it, marked', () => {
    const reverted = tx(5);
    const dropped = tx(0, { status: 'dropped', blockHeight: null, time: tx(7).time + 1 });
    const away = new Map([
      [reverted.txId, { mark: 'reverted' as const, activity: null }],
      [dropped.txId, { mark: 'dropped' as const, activity: dropped }],
    ]);
    const rows = historyRows({ pending: [], recent: [tx(9), tx(7), tx(3)], kept: [reverted], away });
    expect(rows.map((row) => [row.activity.txId, row.mark])).toEqual([
      [tx(9).txId, null],
      [dropped.txId, 'dropped'],
      [tx(7).txId, null],
      [reverted.txId, 'reverted'],
      [tx(3).txId, null],
    ]);
  });

  it('drops the mark of a reverted transaction once it is mined again, and keeps it while it waits in the mempool', () => {
    const again = tx(5);
    const away = new Map([[again.txId, { mark: 'reverted' as const, activity: again }]]);
    expect(historyRows({ pending: [], recent: [again], kept: [], away })[0]!.mark).toBeNull();
    const waiting = { ...again, status: 'pending' as const, blockHeight: null };
    expect(historyRows({ pending: [waiting], recent: [], kept: [again], away })).toEqual([
      { activity: waiting, mark: 'reverted' },
    ]);
  });
});

describe('newer transactions than the history kept, never read', () => {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => tx(to - i));

  it('finds them once the engine’s newest all lie above the newest kept', () => {
    // Kept 1–5 when the page opened; the engine's 50 newest are now 12–61: 6–11 were never read.
    expect(unreadNewer(range(1, 5), range(12, 61))).toBe(true);
    // Still beside each other: the newest kept is among the engine's.
    expect(unreadNewer(range(1, 12), range(12, 61))).toBe(false);
    // In whatever order the device kept its pages.
    expect(unreadNewer([...range(1, 5)].reverse(), range(12, 61))).toBe(true);
  });

  it('finds none with nothing kept yet, nothing followed, or the engine behind the history kept', () => {
    expect(unreadNewer([], range(12, 61))).toBe(false);
    expect(unreadNewer(range(1, 5), [])).toBe(false);
    expect(unreadNewer(range(1, 20), range(1, 10))).toBe(false);
  });
});

describe('the full history’s filters', () => {
  const stxIn = tx(1);
  const token = tx(2, { kind: 'contract_call', stxNet: 0n, movements: [move({ type: 'ft', assetIdentifier: GOLD })] });
  const nft = tx(3, { kind: 'contract_call', stxNet: 0n, movements: [move({ type: 'nft', assetIdentifier: OWL })] });
  const stake = tx(4, {
    kind: 'contract_call',
    stxNet: -300n,
    sender: ME,
    contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-5', functionName: 'stake' },
    movements: [],
    locked: 60_000_000_000n,
  });
  const failed = tx(5, { status: 'failed', stxNet: -300n, sender: ME, movements: [] });
  const pending = tx(6, { status: 'pending', blockHeight: null });
  // A staking reward claim: sBTC in from a signer's contract, not the PoX contract.
  const claim = tx(7, {
    kind: 'contract_call',
    stxNet: -300n,
    sender: ME,
    contractCall: { contractId: `${BOB}.pox5-signer`, functionName: 'claim-rewards' },
    movements: [move({ type: 'ft', assetIdentifier: GOLD })],
  });
  const all = [stxIn, token, nft, stake, failed, pending, claim].map((activity) => ({ activity, mark: null }));
  const shown = (filter: Parameters<typeof matchesFilter>[1]) =>
    all.filter((row) => matchesFilter(row, filter, ME)).map((row) => row.activity);

  it('tells STX, tokens, NFTs, staking (pox-5 and reward claims too), failed and pending apart', () => {
    expect(shown('all')).toHaveLength(all.length);
    expect(shown('stx')).toEqual([stxIn, pending]);
    expect(shown('tokens')).toEqual([token]);
    expect(shown('nfts')).toEqual([nft]);
    expect(shown('staking')).toEqual([stake, claim]);
    expect(shown('failed')).toEqual([failed]);
    expect(shown('pending')).toEqual([pending]);
  });

  it('reads a filter from a link, anything unknown as all', () => {
    expect(readFilter('nfts')).toBe('nfts');
    expect(readFilter('NFTs')).toBe('all');
    expect(readFilter(null)).toBe('all');
  });
});

describe('the signed amount column', () => {
  it('gives each asset its signed net and the fee on a sent row, in base units', () => {
    const swap = tx(8, {
      kind: 'contract_call',
      sender: ME,
      fee: 2_000n,
      stxNet: -5_002_000n,
      movements: [
        move({ sender: ME, recipient: BOB, amount: 5_000_000n }),
        move({ type: 'ft', assetIdentifier: GOLD, amount: 123_456_789_012_345_678_901n }),
      ],
    });
    const { lines, fee } = signedAmounts(swap, ME);
    expect(lines.map((line) => [line.sign, line.effect.assetIdentifier, line.effect.net])).toEqual([
      ['−', 'STX', -5_000_000n],
      ['+', GOLD, 123_456_789_012_345_678_901n],
    ]);
    expect(fee).toBe(2_000n);
  });

  it('gives no fee on a received row, and only the fee on a failed one', () => {
    expect(signedAmounts(tx(1), ME)).toEqual({
      lines: [expect.objectContaining({ sign: '+' })],
      locked: null,
      fee: null,
    });
    expect(signedAmounts(tx(5, { status: 'failed', stxNet: -300n, sender: ME, movements: [] }), ME)).toEqual({
      lines: [],
      locked: null,
      fee: 300n,
    });
    expect(signedAmounts(tx(6, { status: 'dropped', blockHeight: null, sender: ME, stxNet: -1_000_300n }), ME)).toEqual(
      {
        lines: [],
        locked: null,
        fee: null,
      },
    );
  });

  it('gives a stake the STX it locked beside its fee: nothing left the address, but that much is locked', () => {
    const stake = tx(7, { sender: ME, stxNet: -300n, fee: 300n, movements: [], locked: 60_000_000_000n });
    expect(signedAmounts(stake, ME)).toEqual({ lines: [], locked: 60_000_000_000n, fee: 300n });
    // Failed, it locked nothing.
    expect(signedAmounts({ ...stake, status: 'failed' }, ME).locked).toBeNull();
  });
});
