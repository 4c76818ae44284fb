import { createStore } from 'idb-keyval';
import { describe, expect, it, vi } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { NotificationContent } from '../../src/domain/text/notification-content.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { answerNextAfter, forwardTo, rig, serveDevnetThroughMsw } from './harness.ts';
import { deliverToTray } from './truth/tray.ts';

serveDevnetThroughMsw();

/**
 * An address's first sync takes what it reads pending as history: pending before the watch began. The feed is a
 * second connection, and its word of a transaction that entered the mempool after the address was added can reach
 * the page after the sync's answers (a busy page, a node whose events trail its database). This reproduces the CI
 * failure of tests/e2e/tray.spec.ts that told only Bob's side of Alice's payment to Bob ('Receiving 4.30 STX —
 * pending'): Alice's first sync read the payment pending and took it for history before the feed's word of it was
 * handled, which then changed nothing.
 */
describe('a transaction sent while an address is being added', () => {
  it('is told pending on both sides, as one, though the feed tells it after the first sync read it', async () => {
    // The system's tray (tag → notification), filled as the service worker fills it.
    const tray = new Map<string, NotificationContent>();
    const labels = new Map<string, string>();
    const harness = rig({ sink: forwardTo(() => alerter) });
    const { devnet, monitor, until, control, book } = harness;
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address) as [string, string];
    labels.set(alice, 'Alice').set(bob, 'Bob');
    const alerter = new Alerter({
      ledgers: new AlertLedgerStore(createStore('pending-while-added-ledgers', 'by-address')),
      inbox: new Inbox(createStore('pending-while-added-inbox', 'alerts')),
      settings: new AlertSettingsStore(createStore('pending-while-added-settings', 'records')),
      watched: (network, principal) => (network === 'testnet' && labels.has(principal) ? { addedAt: 0 } : undefined),
      snapshot: (principal) => book.get(principal),
      text: { label: (principal) => labels.get(principal) ?? '', nameOf: () => null, token: () => undefined },
      deliver: (content) => Promise.resolve(deliverToTray(tray, content)),
      onScreen: () => Promise.resolve([...tray.values()]),
      away: () => false,
    });
    await alerter.start([]);
    monitor.start([bob]);
    await until(bob, (snapshot) => snapshot.syncedAt !== null);
    await vi.waitFor(() => expect(monitor.status.feed).toBe('live'));
    await monitor.settled();
    await alerter.idle();

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
    await expect
      .poll(() => [...tray.values()].map((content) => [content.title, [...content.data.ids].sort()]))
      .toEqual([['Alice → Bob 4.30 STX — pending', ids]]);
    await control('/devnet/faults', { feedLagMs: 0 });
    expect(harness.problems).toEqual([]);
  });
});
