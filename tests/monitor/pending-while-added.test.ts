import { createStore } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { answerNextAfter, forwardTo, rig, serveDevnetThroughMsw } from './harness.ts';
import { memoryTray } from './truth/tray.ts';

serveDevnetThroughMsw();

let stores = 0;

/** Bob watched and synced, the feed live, alerts judged into a tray filled as the service worker fills it. */
async function bobWatched() {
  const labels = new Map<string, string>();
  const harness = rig({ sink: forwardTo(() => alerter) });
  const { devnet, monitor, until, book } = harness;
  const [alice, bob, carol] = devnet.chain.accounts.people.map((person) => person.address) as [string, string, string];
  labels.set(alice, 'Alice').set(bob, 'Bob');
  const named = `pending-while-added-${++stores}`;
  const inbox = new Inbox(createStore(`${named}-inbox`, 'alerts'));
  // The system's tray (tag → notification), told as the service worker tells it.
  const { screen: tray, deliver } = memoryTray(inbox);
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`${named}-ledgers`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`${named}-settings`, 'records')),
    watched: (network, principal) => (network === 'testnet' && labels.has(principal) ? { addedAt: 0 } : undefined),
    snapshot: (principal) => book.get(principal),
    text: { label: (principal) => labels.get(principal) ?? '', nameOf: () => null, token: () => undefined },
    deliver,
    away: () => false,
  });
  await alerter.start([]);
  monitor.start([bob]);
  await until(bob, (snapshot) => snapshot.syncedAt !== null);
  await vi.waitFor(() => expect(monitor.status.feed).toBe('live'));
  await monitor.settled();
  await alerter.idle();
  /** What the tray shows: each notification's title and the alerts it stands for. */
  const shown = () => [...tray.values()].map((content) => [content.title, [...content.data.ids].sort()]);
  return { harness, alice, bob, carol, shown };
}

/**
 * An address's first sync takes what it reads pending as history: pending before the watch began. The feed is a
 * second connection, and its word of a transaction that entered the mempool after the address was added can reach
 * the page after the sync's answers (a busy page, a node whose events trail its database).
 */
describe('a transaction sent while an address is being added', () => {
  /**
   * This reproduces the CI failure of tests/e2e/tray.spec.ts that told only Bob's side of Alice's payment to Bob
   * ('Receiving 4.30 STX — pending'): Alice's first sync read the payment pending and took it for history before the
   * feed's word of it was handled, which then changed nothing.
   */
  it('is told pending on both sides, as one, though the feed tells it after the first sync read it', async () => {
    const { harness, alice, bob, shown } = await bobWatched();
    const { devnet, monitor, control, book } = harness;

    // From now on the feed's frames trail the REST answers by a second, in order.
    await control('/devnet/faults', { feedLagMs: 1000 });
    let txId = '';
    // Alice is added; as her first sync reads her history, she pays Bob.
    answerNextAfter(
      devnet,
      '/extended/v3/principals/:principal/transactions',
      (principal) => principal === alice,
      async () => {
        const sent = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '4300000' });
        txId = String(sent['tx_id']);
      },
    );
    await monitor.setPrincipals([bob, alice]);
    expect(txId).not.toBe('');
    // Her first sync read the payment pending: the node had it before it answered.
    expect(book.get(alice)?.pending.map((activity) => activity.txId)).toEqual([txId]);

    const ids = [alertId('testnet', alice, txId), alertId('testnet', bob, txId)].sort();
    await expect.poll(shown).toEqual([['4.30 STX · Alice → Bob — pending', ids]]);
    await control('/devnet/faults', { feedLagMs: 0 });
    expect(harness.problems).toEqual([]);
  });

  /**
   * A reconcile hands the node's mempool list over to every principal watched when it asked for it. Alice, added as
   * it ran, had no baseline yet: the list's word of her payment, taken as what a sync found before any alert of
   * hers, became her history, and her own first sync and the feed's late word then changed nothing.
   */
  it('is told pending on its side though a reconcile lists it before the first sync is done', async () => {
    const { harness, alice, bob, carol, shown } = await bobWatched();
    const { devnet, monitor, control, until, book } = harness;
    // Carol paid Bob in a block the last reconcile did not read: the next one reads Bob's history.
    const paid = await control('/devnet/transfer', { sender: carol, recipient: bob, amount: '1000000' });
    await control('/devnet/mine', {});
    await until(bob, (snapshot) => snapshot.recent.some((activity) => activity.txId === paid['tx_id']));
    await monitor.settled();

    // From now on the feed's frames trail the REST answers by a second, in order.
    await control('/devnet/faults', { feedLagMs: 1000 });
    let adding: Promise<void> | null = null;
    let reconciling: Promise<void> | null = null;
    let txId = '';
    // As the reconcile reads Bob's history, Alice is added and pays Bob.
    answerNextAfter(
      devnet,
      '/extended/v3/principals/:principal/transactions',
      (principal) => principal === bob,
      async () => {
        adding = monitor.setPrincipals([bob, alice]);
        const sent = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '4300000' });
        txId = String(sent['tx_id']);
      },
    );
    // Her first sync reads her history only once the reconcile is over, its mempool list handed over.
    answerNextAfter(
      devnet,
      '/extended/v3/principals/:principal/transactions',
      (principal) => principal === alice,
      () => reconciling!,
    );
    const heardBefore = monitor.status.lastEventAt;
    reconciling = monitor.reconcile();
    await reconciling;
    expect(txId).not.toBe('');
    // The feed's word of the payment had not come yet: only the list told of it.
    expect(monitor.status.lastEventAt).toBe(heardBefore);
    await adding;
    expect(book.get(alice)?.pending.map((activity) => activity.txId)).toEqual([txId]);

    const ids = [alertId('testnet', alice, txId), alertId('testnet', bob, txId)].sort();
    await expect.poll(shown).toContainEqual(['4.30 STX · Alice → Bob — pending', ids]);
    // Bob's side, told first from the list, became the pair's notification: Carol's payment is the only other one.
    expect(shown()).toHaveLength(2);
    await control('/devnet/faults', { feedLagMs: 0 });
    expect(harness.problems).toEqual([]);
  });
});
