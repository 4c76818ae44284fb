import { describe, expect, it } from 'vitest';
import { describeActivity, shortPrincipal } from '../../src/domain/text/activity-text.ts';
import { formatStx, formatUnits, parseAmount } from '../../src/domain/amount.ts';
import { nftIdText } from '../../src/domain/text/asset-text.ts';
import { balanceHistory } from '../../src/domain/chart/balance-history.ts';
import { explorerUrl } from '../../src/domain/explorer.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';

const activity = (txId: string, stxNet: bigint, time: number, extra: Partial<Activity> = {}): Activity => ({
  txId,
  status: 'success',
  kind: 'token_transfer',
  counterparty: 'SP000000000000000000002Q6VF78',
  stxNet,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: 10,
  time,
  ...extra,
});

describe('amounts', () => {
  it('are bigint base units, formatted only at the edge, beyond 2^53', () => {
    expect(parseAmount('1000000000000000000000')).toBe(10n ** 21n);
    expect(parseAmount('1.5')).toBeNull();
    expect(parseAmount(12)).toBeNull();
    expect(formatStx(1_250_500_000n)).toBe('1,250.50 STX');
    expect(formatStx(-5n)).toBe('−0.000005 STX');
    expect(formatUnits(123_456_789n, 8)).toBe('1.23456789');
    expect(formatUnits(10n ** 24n, 6)).toBe('1,000,000,000,000,000,000.00');
  });
});

describe('activity text', () => {
  it('says what happened at a glance', () => {
    expect(describeActivity(activity('a', 5_000_000n, 1), ME)).toBe('Received 5.00 STX');
    // The fee is not part of the amount.
    expect(describeActivity(activity('b', -40_000_180n, 1, { status: 'pending', blockHeight: null }), ME)).toBe(
      'Sending 40.00 STX — pending',
    );
    expect(
      describeActivity(
        activity('c', -180n, 1, {
          kind: 'contract_call',
          status: 'failed',
          contractCall: { contractId: 'SP1.pool', functionName: 'stake' },
        }),
        ME,
      ),
    ).toBe('Failed: pool.stake');
    expect(shortPrincipal('ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4.vault')).toBe('ST3TBR…J7X4.vault');
  });
});

describe('balance history', () => {
  it('walks back from today’s total through each mined transaction', () => {
    const points = balanceHistory(1000n, [activity('new', 300n, 200), activity('old', -100n, 100)], 300);
    expect(points.map((p) => [p.time, p.balance])).toEqual([
      [99, 800n],
      [100, 700n],
      [200, 1000n],
      [300, 1000n],
    ]);
  });

  it('never runs back in time, whatever the block times and the device clock say', () => {
    // The newest block is stamped after the device's "now"; an older block after a newer one.
    const points = balanceHistory(
      1000n,
      [activity('new', 300n, 500), activity('mid', 50n, 450), activity('old', 5n, 470)],
      300,
    );
    const times = points.map((p) => p.time);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(points.at(-1)).toEqual({ time: 500, balance: 1000n });
  });
});

describe('NFT ids', () => {
  it('read as people write them', () => {
    expect(['u15', '15', '-3', '"gold-1"', 'u"x"', '0x0102'].map(nftIdText)).toEqual([
      '#15',
      '#15',
      '#-3',
      'gold-1',
      'x',
      '0x0102',
    ]);
  });
});

describe('explorer links', () => {
  it('name the chain, and the API of a local node', () => {
    expect(explorerUrl('SP1', 'mainnet', null)).toBe('https://explorer.hiro.so/address/SP1?chain=mainnet');
    expect(explorerUrl('ST1', 'testnet', 'http://127.0.0.1:3999')).toBe(
      'https://explorer.hiro.so/address/ST1?chain=testnet&api=http%3A%2F%2F127.0.0.1%3A3999',
    );
  });
});
