import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { readTypedPrincipal } from '../../src/domain/address/typed-principal.ts';
import { upgradeWatchlistRecord, WATCHLIST_SCHEMA_VERSION } from '../../src/store/watchlist-schema.ts';

const MAINNET = c32address(22, '33'.repeat(20));
const TESTNET = c32address(20, '44'.repeat(20));

describe('stored watch list records', () => {
  it('v1 (addresses only) upgrades to the current schema, deriving network and kind', () => {
    const v1 = { version: 1, addresses: [{ address: MAINNET.toLowerCase(), label: 'Cold' }, { address: TESTNET }] };
    expect(upgradeWatchlistRecord(v1, 99, readTypedPrincipal)).toEqual({
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
      readTypedPrincipal,
    );
    expect(result.ok && result.value.entries).toHaveLength(1);
    expect(result.ok && result.value.dropped).toEqual([
      expect.stringMatching(/^“nope” is not a valid Stacks address\. /),
    ]);
  });

  it('a current record is read by its shape: a damaged or non-canonical principal is dropped with a reason', () => {
    const entry = (principal: string) => ({ principal, network: 'mainnet', kind: 'single-sig', label: '', addedAt: 5 });
    const contract = { ...entry(`${MAINNET}.vault`), kind: 'contract' };
    const damaged = [MAINNET.toLowerCase(), `${MAINNET.slice(0, 10)}U${MAINNET.slice(11)}`, 'SX' + MAINNET.slice(2)];
    const result = upgradeWatchlistRecord(
      { schemaVersion: WATCHLIST_SCHEMA_VERSION, entries: [entry(MAINNET), contract, ...damaged.map(entry)] },
      0,
    );
    expect(result.ok && result.value.entries).toEqual([entry(MAINNET), contract]);
    expect(result.ok && result.value.dropped).toEqual(
      damaged.map((text) => `“${text}” is not a stored Stacks address (a canonical SP, SM, ST or SN address)`),
    );
    expect(
      upgradeWatchlistRecord({ schemaVersion: 2, entries: [{ ...contract, principal: `${MAINNET}.9lives` }] }, 0),
    ).toMatchObject({ ok: true, value: { entries: [], dropped: [expect.stringMatching(/valid contract name/)] } });
  });

  it('a v1 record is not read without the full parser (its addresses may not be canonical)', () => {
    expect(upgradeWatchlistRecord({ version: 1, addresses: [{ address: MAINNET }] }, 0)).toMatchObject({
      ok: false,
      error: { kind: 'unreadable' },
    });
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
