import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { upgradeWatchlistRecord, WATCHLIST_SCHEMA_VERSION } from '../../src/store/watchlist-schema.ts';

const MAINNET = c32address(22, '33'.repeat(20));
const TESTNET = c32address(20, '44'.repeat(20));

describe('stored watch list records', () => {
  it('v1 (addresses only) upgrades to the current schema, deriving network and kind', () => {
    const v1 = { version: 1, addresses: [{ address: MAINNET.toLowerCase(), label: 'Cold' }, { address: TESTNET }] };
    expect(upgradeWatchlistRecord(v1, 99)).toEqual({
      ok: true,
      value: {
        migratedFrom: 1,
        dropped: [],
        entries: [
          { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'Cold', addedAt: 99 },
          { principal: TESTNET, network: 'mainnet', kind: 'multi-sig', label: '', addedAt: 99 },
        ],
      },
    });
  });

  it('a current record reads as it is', () => {
    const entry = { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'Cold', addedAt: 5 };
    expect(upgradeWatchlistRecord({ schemaVersion: WATCHLIST_SCHEMA_VERSION, entries: [entry] }, 0)).toEqual({
      ok: true,
      value: { migratedFrom: null, dropped: [], entries: [entry] },
    });
  });

  it('unreadable entries are reported and duplicates collapse', () => {
    const result = upgradeWatchlistRecord(
      { version: 1, addresses: [{ address: MAINNET }, { address: 'nope' }, { address: MAINNET }] },
      0,
    );
    expect(result.ok && result.value.entries).toHaveLength(1);
    expect(result.ok && result.value.dropped).toEqual([expect.stringMatching(/^“nope”: /)]);
  });

  it('a record from a newer version is refused, not rewritten', () => {
    expect(upgradeWatchlistRecord({ schemaVersion: 3, entries: [] }, 0)).toEqual({
      ok: false,
      error: { kind: 'newer', version: 3 },
    });
  });

  it.each([[null], ['text'], [{}], [{ schemaVersion: 2, entries: 'x' }], [{ version: 0 }]])(
    'garbage %j is unreadable',
    (raw) => {
      expect(upgradeWatchlistRecord(raw, 0)).toMatchObject({ ok: false, error: { kind: 'unreadable' } });
    },
  );
});
