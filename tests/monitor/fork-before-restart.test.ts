import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { AlertLedgerPort, InboxPort } from '../../src/monitor/ports.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { SnapshotBook } from '../../src/store/snapshot-book.ts';
import { forwardTo, rig, serveDevnetThroughMsw } from './harness.ts';
import { refusable } from './refusing-storage.ts';
import { allShown } from './truth/tray.ts';

serveDevnetThroughMsw();

/**
 * A re-org whose new fork mines a transfer at the very height an address was first synced at, heard live, but the app
 * is closed before the alerts could store anything of it (their storage refused writes meanwhile); the snapshots were
 * stored, with the fork's transfer in them. The next start judges the stored snapshots again: the transfer is news.
 */
describe('a re-org the alerts never stored, before a restart', () => {
  it('is judged again from the stored snapshots: the transfer the fork mined at the first sync height is told', async () => {
    const name = `fork-before-restart-${Date.now()}`;
    const stores = {
      ledgers: createStore(`${name}-ledgers`, 'by-address'),
      inbox: createStore(`${name}-inbox`, 'alerts'),
      settings: createStore(`${name}-settings`, 'records'),
    };
    let alerter: Alerter | null = null;
    const harness = rig({
      sink: forwardTo(() => alerter!),
    });
    const { devnet, book, until } = harness;
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address) as [string, string];
    const open = (ledgers: AlertLedgerPort, inbox: InboxPort, book: SnapshotBook) =>
      new Alerter({
        ledgers,
        inbox,
        settings: new AlertSettingsStore(stores.settings),
        watched: (network, principal) => (network === 'testnet' && principal === bob ? { addedAt: 0 } : undefined),
        snapshot: (principal) => book.get(principal),
        text: { label: () => 'Bob', nameOf: () => null, token: () => undefined },
        deliver: allShown,
        retry: { firstMs: 5, maxMs: 20 },
      });
    const first = refusable(new AlertLedgerStore(stores.ledgers), new Inbox(stores.inbox));
    alerter = open(first.ledgers, first.inbox, book);
    devnet.chain.mine();
    devnet.chain.mine();
    harness.monitor.start([bob]);
    await until(bob, (s) => s.syncedAt !== null);
    await harness.monitor.settled();
    await alerter.idle();
    const firstSyncHeight = devnet.chain.tip.height;

    first.refuse();
    const entry = await devnet.chain.submit(alice, { kind: 'stx', recipient: bob, amount: 4242n, memo: '' });
    const txId = entry.signed.txId;
    devnet.chain.reorg(1);
    const mined = devnet.chain.tx(txId)?.state;
    expect(mined?.kind === 'confirmed' && mined.block.height).toBe(firstSyncHeight);
    await until(bob, (s) => s.recent.some((activity) => activity.txId === txId));
    await expect.poll(() => harness.monitor.status.syncing).toBe(false);
    await harness.monitor.settled();
    await book.saved();
    harness.monitor.stop();

    // Opened again: the snapshots and the alerts' storage as they were left.
    const stored = new SnapshotBook(harness.snapshotStore);
    await stored.load();
    const inbox = new Inbox(stores.inbox);
    alerter = open(new AlertLedgerStore(stores.ledgers), inbox, stored);
    await alerter.start(stored.all());
    expect(inbox.get(alertId('testnet', bob, txId))?.phase).toBe('confirmed');
  });
});
