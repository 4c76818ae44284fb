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

let run = 0;

/**
 * Two tabs of one profile watch Alice and Bob. The first leads; the second follows its snapshots, reading each record
 * again when the first says it stored it. A block confirms a transfer between them: the first tab stores its
 * snapshots with it confirmed (100 ms after the event), but closes before its alerts store the confirmation (busy
 * cores). The second takes over as the app does (app/after-paint.ts), and the first tab's last message, its reread
 * still on its way, lands only after the alerts' start-up replay. The devnet's ledger says what must be told: every
 * watched side of the transfer, confirmed.
 */
describe('a takeover after the leading tab stored its snapshots ahead of its alerts', () => {
  it('tells the confirmation the closed tab never stored, however late its last snapshots reach the new leader', async () => {
    const name = `takeover-book-${++run}`;
    const stores = {
      ledgers: createStore(`${name}-ledgers`, 'by-address'),
      inbox: createStore(`${name}-inbox`, 'alerts'),
      settings: createStore(`${name}-settings`, 'records'),
    };
    /** The alerts of the tab leading now: the monitors hand what they learn to them. */
    let alerter: Alerter | null = null;
    const harness = rig({
      sink: forwardTo(() => alerter!),
    });
    const { devnet, book: firstBook } = harness;
    const watched = devnet.chain.accounts.people.slice(0, 2).map((person) => person.address);
    const [alice, bob] = watched as [string, string];
    const alertsOver = (ledgers: AlertLedgerPort, inbox: InboxPort, book: SnapshotBook) =>
      new Alerter({
        ledgers,
        inbox,
        settings: new AlertSettingsStore(stores.settings),
        watched: (network, principal) =>
          network === 'testnet' && watched.includes(principal) ? { addedAt: 0 } : undefined,
        snapshot: (principal) => book.get(principal),
        text: {
          label: (principal) => (principal === alice ? 'Alice' : 'Bob'),
          nameOf: () => null,
          token: () => undefined,
        },
        deliver: allShown,
        retry: { firstMs: 5, maxMs: 50 },
      });
    const bothHold = (book: SnapshotBook, txId: string, status: string) =>
      watched.every((principal) =>
        book
          .get(principal)
          ?.[status === 'pending' ? 'pending' : 'recent'].some((a) => a.txId === txId && a.status === status),
      );

    // The first tab leads.
    const first = refusable(new AlertLedgerStore(stores.ledgers), new Inbox(stores.inbox));
    alerter = alertsOver(first.ledgers, first.inbox, firstBook);
    await alerter.start(firstBook.all());
    harness.monitor.start(watched);
    for (const principal of watched) await harness.until(principal, (snapshot) => snapshot.syncedAt !== null);
    await expect.poll(() => harness.monitor.status.syncing).toBe(false);
    await harness.monitor.settled();
    await alerter.idle();

    // The second tab follows: what the first stored, read again as the first says so.
    const secondBook = new SnapshotBook(harness.snapshotStore);
    const heardFromFirst = async () => {
      await firstBook.saved();
      await secondBook.reread(watched);
    };
    await heardFromFirst();

    // Alice pays Bob: told pending on both sides, and followed by the second tab.
    const { signed } = await devnet.chain.submit(alice, { kind: 'stx', recipient: bob, amount: 2_500_000n, memo: '' });
    const sides = watched.map((principal) => alertId('testnet', principal, signed.txId));
    await expect.poll(() => sides.map((id) => first.inbox.get(id)?.phase)).toEqual(['pending', 'pending']);
    await expect.poll(() => bothHold(firstBook, signed.txId, 'pending')).toBe(true);
    await heardFromFirst();

    // Mined: the first tab's snapshots are stored with it confirmed; its alerts never store that (the tab closes).
    first.refuse();
    devnet.chain.mine();
    await expect.poll(() => bothHold(firstBook, signed.txId, 'success')).toBe(true);
    await firstBook.saved();
    harness.monitor.stop();
    expect(sides.map((id) => first.inbox.get(id)?.phase)).toEqual(['pending', 'pending']);

    // The second tab takes over as the app does (app/after-paint.ts): its book leads, the alerts start on it, then
    // the monitor starts.
    const inbox = new Inbox(stores.inbox);
    alerter = alertsOver(new AlertLedgerStore(stores.ledgers), inbox, secondBook);
    await secondBook.lead();
    const started = alerter.start(secondBook.all());
    // The first tab's last message arrives now: its reread lands after the start-up replay, before the first sync.
    await secondBook.reread(watched);
    const second = harness.openOver(secondBook);
    second.start(watched);
    await started;
    await expect.poll(() => second.status.tip?.height).toBe(devnet.chain.tip.height);
    await expect.poll(() => second.status.syncing).toBe(false);
    await second.settled();
    await alerter.idle();

    const mined = devnet.chain.tx(signed.txId)?.state;
    expect(mined?.kind).toBe('confirmed');
    expect(sides.map((id) => inbox.get(id)?.phase)).toEqual(['confirmed', 'confirmed']);
  });

  it('keeps what the new leader changed when a reread of the closed tab’s records lands later', async () => {
    const alice = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
    const store = createStore(`takeover-book-${++run}-snapshots`, 'by-principal');
    const first = new SnapshotBook(store);
    first.update(alice, 'testnet', (snapshot) => ({ ...snapshot, syncedHeight: 12 }));
    await first.saved();
    const second = new SnapshotBook(store);

    await second.lead();
    expect(second.get(alice)?.syncedHeight).toBe(12);
    second.update(alice, 'testnet', (snapshot) => ({ ...snapshot, syncedHeight: 13 }));
    // The first tab's message of height 12, on its way while the second took over, lands now.
    await second.reread([alice]);
    expect(second.get(alice)?.syncedHeight).toBe(13);
    await second.saved();
    const reopened = new SnapshotBook(store);
    await reopened.load();
    expect(reopened.get(alice)?.syncedHeight).toBe(13);
  });
});
