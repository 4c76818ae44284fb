import { readTypedPrincipal } from '../../src/domain/address/typed-principal.ts';
import { c32address } from 'c32check';
import { clear, createStore, get, set } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { parsePrincipal, type Principal } from '../../src/domain/address/address.ts';
import type { WatchList } from '../../src/domain/watch/watchlist.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { IdbWatchlistStore, type WatchlistPersistence } from '../../src/store/idb-watchlist-store.ts';
import { KEYS } from '../../src/store/keys.ts';
import { createWatchlistController } from '../../src/store/watchlist-controller.ts';
import type { ChangeChannel } from '../../src/store/watchlist-state.ts';
import { importWatchlistFile } from '../../src/store/watchlist-import.ts';

let dbCount = 0;
const freshDb = () => createStore(`stacks-watch:watchlist:controller-${++dbCount}`, 'records');
const principal = (n: number): Principal => {
  const parsed = parsePrincipal(c32address(22, n.toString(16).padStart(40, '9')));
  if (!parsed.ok) throw new Error('bad test address');
  return parsed.value;
};
const principals = (list: WatchList) => list.map((entry) => entry.principal);
const entriesOf = (controller: ReturnType<typeof createWatchlistController>) => {
  const state = controller.getState();
  return state.status === 'ready' ? state.entries : [];
};

describe('the watch list controller', () => {
  it('persists every change, and a new session reads it back', async () => {
    const db = freshDb();
    const first = createWatchlistController(new IdbWatchlistStore(db));
    await first.load();
    expect(first.add(principal(1), 'One').ok).toBe(true);
    expect(first.add(principal(2), 'Two').ok).toBe(true);
    first.move(principal(1).principal, -1);
    first.rename(principal(2).principal, 'Second');
    await first.saved();

    const second = createWatchlistController(new IdbWatchlistStore(db));
    await second.load();
    expect(entriesOf(second).map((entry) => entry.label)).toEqual(['One', 'Second']);
  });

  it('writes the latest list when changes come faster than storage', async () => {
    const writes: WatchList[] = [];
    let release: () => void = () => {};
    const slow: WatchlistPersistence = {
      load: async () => ({ kind: 'loaded', entries: [] }),
      replaceDamaged: async () => {},
      save: (entries) => {
        writes.push(entries);
        return new Promise<void>((resolve) => (release = resolve));
      },
    };
    const controller = createWatchlistController(slow);
    await controller.load();
    for (let n = 1; n <= 5; n++) controller.add(principal(n), '');
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await controller.saved();
    expect(writes).toHaveLength(2);
    expect(principals(writes[1]!)).toEqual(principals(entriesOf(controller)));
  });

  it('keeps changes in memory and says so when storage fails', async () => {
    const failing: WatchlistPersistence = {
      load: async () => ({ kind: 'loaded', entries: [] }),
      replaceDamaged: async () => {},
      save: async () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
    };
    const controller = createWatchlistController(failing);
    await controller.load();
    controller.add(principal(1), '');
    await controller.saved();
    expect(controller.getState()).toMatchObject({
      status: 'ready',
      saveError: expect.stringMatching(
        /could not be saved on this device: this device has no storage space left for the app\..*download the list/,
      ),
    });
    expect(entriesOf(controller)).toHaveLength(1);
  });

  it('a damaged record is not saved over until the user chooses; then it is kept beside the new list', async () => {
    const db = freshDb();
    const damaged = { schemaVersion: 2, entries: [{ principal: principal(1).principal, label: 'Kept' }, { label: 7 }] };
    await set(KEYS.watchlist, damaged, db);
    const controller = createWatchlistController(new IdbWatchlistStore(db, () => 5000));
    await controller.load();
    expect(controller.getState()).toMatchObject({
      status: 'ready',
      damaged: { damage: { reason: null, dropped: [expect.stringMatching(/principal/)] }, raw: damaged },
    });
    expect(entriesOf(controller).map((entry) => entry.label)).toEqual(['Kept']);

    controller.add(principal(2), 'Added meanwhile');
    controller.resave();
    await controller.saved();
    expect(await get(KEYS.watchlist, db)).toEqual(damaged);

    await controller.replaceDamaged();
    expect(controller.getState()).toMatchObject({
      status: 'ready',
      damaged: null,
      notice: expect.stringMatching(/set aside/),
    });
    expect(await get(KEYS.watchlist, db)).toMatchObject({
      schemaVersion: 2,
      entries: [{ label: 'Added meanwhile' }, { label: 'Kept' }],
    });
    expect(await get(KEYS.setAside(KEYS.watchlist, 5000), db)).toEqual(damaged);
  });

  it('saves the list on screen again when asked (the stored one was deleted under the app)', async () => {
    const db = freshDb();
    const controller = createWatchlistController(new IdbWatchlistStore(db));
    await controller.load();
    controller.add(principal(1), 'One');
    await controller.saved();
    await clear(db);
    controller.resave();
    await controller.saved();
    expect(await get(KEYS.watchlist, db)).toMatchObject({ entries: [{ label: 'One' }] });
  });

  it('refuses a duplicate and a bad label with a message, changing nothing', async () => {
    const controller = createWatchlistController(new IdbWatchlistStore(freshDb()));
    await controller.load();
    controller.add(principal(1), 'Cold');
    expect(controller.add(principal(1), '')).toEqual({
      ok: false,
      error: expect.stringMatching(/already watch this address: it is “Cold”, number 1/),
    });
    expect(controller.add(principal(2), 'x'.repeat(65))).toEqual({
      ok: false,
      error: expect.stringMatching(/65 characters/),
    });
    expect(entriesOf(controller)).toHaveLength(1);
  });

  it('a bad import changes nothing; a good one merges without duplicates', async () => {
    const controller = createWatchlistController(new IdbWatchlistStore(freshDb()));
    await controller.load();
    controller.add(principal(1), 'Mine');
    const before = entriesOf(controller);
    const targets = { watchlist: controller, alertRules: new AlertSettingsStore(freshDb()) };
    expect((await importWatchlistFile(targets, 'not json', readTypedPrincipal)).ok).toBe(false);
    const oneBad = JSON.stringify([principal(2).principal, 'SPBAD']);
    expect((await importWatchlistFile(targets, oneBad, readTypedPrincipal)).ok).toBe(false);
    expect(entriesOf(controller)).toBe(before);

    const imported = await importWatchlistFile(
      targets,
      JSON.stringify([principal(1).principal, { principal: principal(3).principal, label: 'Three' }]),
      readTypedPrincipal,
    );
    expect(imported).toEqual({ ok: true, value: 'Imported 1 address; 1 address already here as in it.' });
    expect(entriesOf(controller).map((entry) => entry.label)).toEqual(['Mine', 'Three']);
    // The device's own list brought back: nothing new, said as such (never "Imported 0 addresses").
    const again = await importWatchlistFile(
      targets,
      JSON.stringify([principal(1).principal, { principal: principal(3).principal, label: 'Three' }]),
      readTypedPrincipal,
    );
    expect(again).toEqual({
      ok: true,
      value: 'Nothing new: all 2 of its addresses are already here, with the same labels and rules.',
    });
    // An address written in lower case is kept as Stacks addresses are written, and the import says so.
    const lowered = await importWatchlistFile(
      targets,
      JSON.stringify([principal(4).principal.toLowerCase(), principal(5).principal]),
      readTypedPrincipal,
    );
    expect(lowered).toEqual({
      ok: true,
      value:
        'Imported 2 addresses; 1 saved in capitals with 0 and 1 for any O, I or L, as Stacks addresses are written.',
    });
    expect(entriesOf(controller).map((entry) => entry.principal)).toContain(principal(4).principal);
  });

  it('another tab sees changes through the broadcast channel', async () => {
    const db = freshDb();
    const name = `test-channel-${dbCount}`;
    const [channelA, channelB] = [new BroadcastChannel(name), new BroadcastChannel(name)];
    const tabA = createWatchlistController(new IdbWatchlistStore(db), { channel: channelA as ChangeChannel });
    const tabB = createWatchlistController(new IdbWatchlistStore(db), { channel: channelB as ChangeChannel });
    await Promise.all([tabA.load(), tabB.load()]);
    const updated = new Promise<void>((resolve) => tabB.subscribe(() => entriesOf(tabB).length === 1 && resolve()));
    tabA.add(principal(4), 'From A');
    await updated;
    expect(entriesOf(tabB)[0]?.label).toBe('From A');
    tabA.close();
    tabB.close();
    channelA.close();
    channelB.close();
  });
});
