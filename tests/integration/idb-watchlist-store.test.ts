import { c32address } from 'c32check';
import { createStore, get, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { IdbWatchlistStore } from '../../src/store/idb-watchlist-store.ts';
import { DATABASES, KEYS } from '../../src/store/keys.ts';

const MAINNET = c32address(22, 'a1'.repeat(20));
const TESTNET = c32address(26, 'b2'.repeat(20));
let db: ReturnType<typeof createStore>;
let dbCount = 0;

beforeEach(() => {
  db = createStore(`${DATABASES.watchlist}:test-${++dbCount}`, 'records');
});

describe('IdbWatchlistStore', () => {
  it('starts empty on a fresh device', async () => {
    expect(await new IdbWatchlistStore(db).load()).toEqual({ kind: 'loaded', entries: [] });
  });

  it('saves and loads the list in order', async () => {
    const store = new IdbWatchlistStore(db);
    const entries = [
      { principal: TESTNET, network: 'testnet', kind: 'single-sig', label: 'B', addedAt: 2 },
      { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'A', addedAt: 1 },
    ] as const;
    await store.save(entries);
    expect(await new IdbWatchlistStore(db).load()).toEqual({ kind: 'loaded', entries });
    expect(await get(KEYS.watchlist, db)).toEqual({ schemaVersion: 2, entries });
  });

  it('migrates a stored v1 record, keeping the original as a backup', async () => {
    const v1 = { version: 1, addresses: [{ address: MAINNET, label: 'Cold' }, { address: TESTNET.toLowerCase() }] };
    await set(KEYS.watchlist, v1, db);

    const loaded = await new IdbWatchlistStore(db, () => 1234).load();

    expect(loaded).toEqual({
      kind: 'loaded',
      entries: [
        { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'Cold', addedAt: 1234 },
        { principal: TESTNET, network: 'testnet', kind: 'single-sig', label: '', addedAt: 1234 },
      ],
    });
    expect(await get(KEYS.watchlist, db)).toMatchObject({ schemaVersion: 2 });
    expect(await get(KEYS.watchlistBackup('v1'), db)).toEqual(v1);
  });

  it('shows the entries that read and leaves a record with unreadable ones as it was, even an old one', async () => {
    const v1 = { version: 1, addresses: [{ address: MAINNET }, { address: 'SPNOTANADDRESS' }] };
    await set(KEYS.watchlist, v1, db);
    const loaded = await new IdbWatchlistStore(db).load();
    expect(loaded).toMatchObject({
      kind: 'damaged',
      entries: [{ principal: MAINNET }],
      damage: { reason: null, dropped: [expect.stringMatching(/^“SPNOTANADDRESS”/)] },
      raw: v1,
      place: 'stacks-watch:watchlist/watchlist',
    });
    expect(await get(KEYS.watchlist, db)).toEqual(v1);
  });

  it('never overwrites a record written by a newer version', async () => {
    const future = { schemaVersion: 9, entries: [{ something: 'new' }] };
    await set(KEYS.watchlist, future, db);
    expect(await new IdbWatchlistStore(db).load()).toMatchObject({ kind: 'newer', version: 9, raw: future });
    expect(await get(KEYS.watchlist, db)).toEqual(future);
  });

  it('leaves an unreadable record as it was; replacing it keeps it under a key of its own', async () => {
    await set(KEYS.watchlist, 'corrupted', db);
    const store = new IdbWatchlistStore(db, () => 7);
    expect(await store.load()).toMatchObject({
      kind: 'damaged',
      entries: [],
      damage: { reason: 'it is not a record', dropped: [] },
      raw: 'corrupted',
    });
    expect(await get(KEYS.watchlist, db)).toBe('corrupted');
    await store.replaceDamaged('corrupted', []);
    expect(await get(KEYS.watchlist, db)).toEqual({ schemaVersion: 2, entries: [] });
    expect(await get('watchlist:set-aside:1970-01-01T00:00:00.007Z', db)).toBe('corrupted');
  });
});
