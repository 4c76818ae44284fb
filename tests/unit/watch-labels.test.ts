import { describe, expect, it } from 'vitest';
import { labelOf } from '../../src/app/watch-labels.ts';
import type { WatchlistController } from '../../src/store/watchlist-state.ts';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const BOB = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';

const watching = (entries: Partial<WatchEntry>[]) =>
  ({ getState: () => ({ status: 'ready', entries }) }) as unknown as WatchlistController;

describe('a CSV file names an address as the list does', () => {
  it('by its label, else its BNS name (given when added, or learned since), else the address', () => {
    const learned = new Map([[ALICE, 'alice.btc']]);
    const names = { get: (principal: string) => learned.get(principal) ?? null };
    expect(labelOf(watching([{ principal: ALICE, label: '' }]), names)(ALICE)).toBe('alice.btc');
    expect(labelOf(watching([{ principal: ALICE, label: 'Savings' }]), names)(ALICE)).toBe('Savings');
    expect(labelOf(watching([{ principal: BOB, label: '', name: 'bob.btc' }]), names)(BOB)).toBe('bob.btc');
    expect(labelOf(watching([{ principal: BOB, label: '' }]), names)(BOB)).toBe(BOB);
  });
});
