import { c32address } from 'c32check';
import { createStore, type UseStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { planMerge, type TransferItem } from '../../src/domain/watch/list-transfer.ts';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import { readTypedPrincipal } from '../../src/domain/address/typed-principal.ts';
import { serialiseWatchlist } from '../../src/domain/watch/watchlist-file.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { IdbWatchlistStore, type WatchlistPersistence } from '../../src/store/idb-watchlist-store.ts';
import { applyMerge } from '../../src/store/list-merge.ts';
import { createWatchlistController } from '../../src/store/watchlist-controller.ts';
import { importWatchlistFile } from '../../src/store/watchlist-import.ts';

let count = 0;
const fresh = () => createStore(`stacks-watch:merge-${++count}`, 'records');
const address = (n: number, version = 22) => c32address(version, n.toString(16).padStart(40, '7'));
const DUST = { ...DEFAULT_RULES, minimums: { STX: 2_000_000n } };
const QUIET = { ...DEFAULT_RULES, pending: false };

async function device(stores: { list?: UseStore; rules?: UseStore } = {}) {
  const watchlist = createWatchlistController(new IdbWatchlistStore(stores.list ?? fresh()));
  await watchlist.load();
  const alertRules = new AlertSettingsStore(stores.rules ?? fresh());
  await alertRules.load();
  return { watchlist, alertRules };
}
const entriesOf = (targets: Awaited<ReturnType<typeof device>>) => {
  const state = targets.watchlist.getState();
  return state.status === 'ready' ? state.entries : [];
};
const read = (n: number) => {
  const parsed = parsePrincipal(address(n));
  if (!parsed.ok) throw new Error('bad test address');
  return parsed.value;
};

describe('merging another device’s list', () => {
  it('adds what is new with its rules, completes what is missing here and loses nothing of this device', async () => {
    const here = await device();
    here.watchlist.add(read(1), 'Cold');
    here.watchlist.add(read(2), '');
    here.watchlist.add(read(3), 'Mine');
    await here.alertRules.setRules('mainnet', address(3), QUIET);
    const sent: TransferItem[] = [1, 2, 3, 4].map((n) => ({
      entry: { principal: address(n), network: 'mainnet', kind: 'single-sig', label: `Theirs ${n}`, addedAt: 5 },
      rules: n === 1 ? null : DUST,
    }));
    const plan = planMerge(entriesOf(here), here.alertRules.get().rules, sent);
    expect(plan.added.map((item) => item.entry.principal)).toEqual([address(4)]);
    expect(plan.labels).toEqual([{ entry: expect.objectContaining({ principal: address(2) }), label: 'Theirs 2' }]);
    expect(plan.rules.map((change) => change.entry.principal)).toEqual([address(2)]);
    expect(plan.kept.map((kept) => [kept.entry.principal, kept.theirLabel, kept.theirRules])).toEqual([
      [address(1), 'Theirs 1', null],
      [address(3), 'Theirs 3', DUST],
    ]);

    expect(await applyMerge(plan, here)).toEqual({
      ok: true,
      value:
        'Added 1 address with alert rules; 1 label filled in; alert rules set for 1 address; Cold and Mine kept as on this device (the other list gives another label or other rules).',
    });
    const labels = Object.fromEntries(entriesOf(here).map((entry) => [entry.principal, entry.label]));
    expect(labels).toEqual({
      [address(1)]: 'Cold',
      [address(2)]: 'Theirs 2',
      [address(3)]: 'Mine',
      [address(4)]: 'Theirs 4',
    });
    expect(here.alertRules.get().rules).toEqual({
      [`mainnet:${address(2)}`]: DUST,
      [`mainnet:${address(3)}`]: QUIET,
      [`mainnet:${address(4)}`]: DUST,
    });
  });

  it('an exported file moves list, labels and rules to a fresh device, where they are stored', async () => {
    const desktop = await device();
    desktop.watchlist.add(read(1), 'Treasury');
    const testnet = parsePrincipal(address(9, 26));
    if (!testnet.ok) throw new Error('bad test address');
    desktop.watchlist.add(testnet.value, 'Faucet');
    await desktop.alertRules.setRules('mainnet', address(1), DUST);
    const file = serialiseWatchlist(entriesOf(desktop), desktop.alertRules.get().rules, 0);

    const phoneStores = { list: fresh(), rules: fresh() };
    const phone = await device(phoneStores);
    expect(await importWatchlistFile(phone, file, readTypedPrincipal)).toMatchObject({ ok: true });
    const reopened = await device(phoneStores);
    expect(entriesOf(reopened).map(({ principal, network, label }) => ({ principal, network, label }))).toEqual(
      entriesOf(desktop).map(({ principal, network, label }) => ({ principal, network, label })),
    );
    expect(reopened.alertRules.get().rules).toEqual({ [`mainnet:${address(1)}`]: DUST });
  });

  it('says nothing was added, and adds nothing, when the rules cannot be stored', async () => {
    const here = await device();
    const refusing = {
      get: () => here.alertRules.get(),
      setRules: () => Promise.reject(new DOMException('The quota was exceeded.', 'QuotaExceededError')),
    };
    const plan = planMerge([], {}, [
      {
        entry: { principal: address(5), network: 'mainnet', kind: 'single-sig', label: 'New', addedAt: 1 },
        rules: DUST,
      },
    ]);
    const outcome = await applyMerge(plan, { watchlist: here.watchlist, alertRules: refusing });
    expect(outcome).toMatchObject({
      ok: false,
      error: expect.stringMatching(/could not be saved on this device .*Nothing was added; try again/),
    });
    expect(entriesOf(here)).toEqual([]);
  });

  it('does not say “added” when the list itself cannot be stored', async () => {
    const watchlist = createWatchlistController({
      load: async () => ({ kind: 'loaded', entries: [] }),
      save: () => Promise.reject(new DOMException('The quota was exceeded.', 'QuotaExceededError')),
      replaceDamaged: async () => undefined,
    } satisfies WatchlistPersistence);
    await watchlist.load();
    const plan = planMerge([], {}, [
      { entry: { principal: address(6), network: 'mainnet', kind: 'single-sig', label: '', addedAt: 1 }, rules: null },
    ]);
    const outcome = await applyMerge(plan, { watchlist, alertRules: new AlertSettingsStore(fresh()) });
    expect(outcome).toMatchObject({ ok: false, error: expect.stringMatching(/could not be saved on this device/) });
  });
});
