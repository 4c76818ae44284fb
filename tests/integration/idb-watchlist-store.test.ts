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
    expect(await new IdbWatchlistStore(db).load()).toEqual({ kind: 'loaded', entries: [], notice: null });
  });

  it('saves and loads the list in order', async () => {
    const store = new IdbWatchlistStore(db);
    const entries = [
      { principal: TESTNET, network: 'testnet', kind: 'single-sig', label: 'B', addedAt: 2 },
      { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'A', addedAt: 1 },
    ] as const;
    await store.save(entries);
    expect(await new IdbWatchlistStore(db).load()).toEqual({ kind: 'loaded', entries, notice: null });
    expect(await get(KEYS.watchlist, db)).toEqual({ schemaVersion: 2, entries });
  });

  it('migrates a stored v1 record, keeping the original as a backup', async () => {
    const v1 = { version: 1, addresses: [{ address: MAINNET, label: 'Cold' }, { address: TESTNET.toLowerCase() }] };
    await set(KEYS.watchlist, v1, db);

    const loaded = await new IdbWatchlistStore(db, () => 1234).load();

    expect(loaded).toEqual({
      kind: 'loaded',
      notice: null,
      entries: [
        { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'Cold', addedAt: 1234 },
        { principal: TESTNET, network: 'testnet', kind: 'single-sig', label: '', addedAt: 1234 },
      ],
    });
    expect(await get(KEYS.watchlist, db)).toMatchObject({ schemaVersion: 2 });
    expect(await get(KEYS.watchlistBackup('v1'), db)).toEqual(v1);
  });

  it('sets aside unreadable entries with a notice, keeping the raw record', async () => {
    const v1 = { version: 1, addresses: [{ address: MAINNET }, { address: 'SPNOTANADDRESS' }] };
    await set(KEYS.watchlist, v1, db);
    const loaded = await new IdbWatchlistStore(db).load();
    expect(loaded.kind === 'loaded' && loaded.entries.map((entry) => entry.principal)).toEqual([MAINNET]);
    expect(loaded.kind === 'loaded' && loaded.notice).toMatch(
      /^1 stored entry could not be read and was set aside: “SPNOTANADDRESS”/,
    );
    expect(await get(KEYS.watchlistBackup('v1'), db)).toEqual(v1);
  });

  it('never overwrites a record written by a newer version', async () => {
    const future = { schemaVersion: 9, entries: [{ something: 'new' }] };
    await set(KEYS.watchlist, future, db);
    expect(await new IdbWatchlistStore(db).load()).toEqual({ kind: 'newer', version: 9 });
    expect(await get(KEYS.watchlist, db)).toEqual(future);
  });

  it('backs up an unreadable record and starts a new list', async () => {
    await set(KEYS.watchlist, 'corrupted', db);
    const loaded = await new IdbWatchlistStore(db).load();
    expect(loaded).toMatchObject({
      kind: 'loaded',
      entries: [],
      notice: expect.stringMatching(/could not be read \(it is not a record\)/),
    });
    expect(await get(KEYS.watchlistBackup('unreadable'), db)).toBe('corrupted');
  });
});
