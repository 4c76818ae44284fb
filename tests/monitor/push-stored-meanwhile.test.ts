import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { withRelayAlert, withShown } from '../../src/domain/relay/relay-inbox.ts';
import type { Deliver } from '../../src/notify/deliveries.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const ADDED_AT = 1_700_000_000_000;
const TX = `0x${'ab'.repeat(32)}`;

const mined: Activity = {
  txId: TX,
  status: 'success',
  kind: 'token_transfer',
  counterparty: OTHER,
  stxNet: 2_500_000n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: 12,
  time: ADDED_AT / 1000 + 60,
};
const pending: Activity = { ...mined, status: 'pending', blockHeight: null };

/**
 * The open app and the relay's push race for one state: the service worker stores and shows the push's "confirmed"
 * in the shared inbox while the engine's tab still holds "pending" in its copy (it reads the records again only when
 * told of the change), and the block reaches the tab in that moment. The state the worker stored is the one the
 * user saw: the tab keeps it, its words and its record of how it was shown, and hands nothing over to tell again.
 */
describe('a state the relay’s push stored while this tab’s copy of the inbox lagged', () => {
  it('is kept as the worker stored it, and not told again', async () => {
    const name = 'push-stored-meanwhile';
    const db = createStore(`inbox-${name}`, 'alerts');
    const inbox = new Inbox(db);
    const handedOver: string[] = [];
    const deliver: Deliver = (told) => {
      handedOver.push(...told.map((entry) => `${entry.phase}:${entry.title}`));
      return Promise.resolve(new Map(told.map(({ id }) => [id, 'notification'])));
    };
    const alerter = new Alerter({
      ledgers: new AlertLedgerStore(createStore(`ledgers-${name}`, 'by-address')),
      inbox,
      settings: new AlertSettingsStore(createStore(`settings-${name}`, 'records')),
      watched: (network, principal) => (network === 'testnet' && principal === ME ? { addedAt: ADDED_AT } : undefined),
      snapshot: () => undefined,
      text: { label: () => 'Treasury', nameOf: () => null, token: () => undefined },
      deliver,
      now: () => ADDED_AT + 120_000,
      report: (problem) => expect.fail(problem),
      retry: { firstMs: 2, maxMs: 20 },
    });
    await alerter.start([]);
    alerter.baseline('testnet', ME, [], 5);
    alerter.activities('testnet', ME, [pending], 'live');
    await alerter.idle();
    const id = alertId('testnet', ME, TX);
    expect(inbox.get(id)).toMatchObject({ phase: 'pending', undelivered: false });
    expect(handedOver).toHaveLength(1);

    // The service worker, on the relay's push of the block: its own copy of the inbox, the same records.
    const worker = new Inbox(db);
    await worker.load();
    const push = {
      cursor: '4',
      id,
      network: 'testnet' as const,
      principal: ME,
      txId: TX,
      phase: 'confirmed' as const,
      title: 'Received 2.50 STX (the relay’s words)',
      body: 'From ST2CY…RK9AG',
      path: `/address/${ME}#tx-${TX}`,
      at: ADDED_AT + 100_000,
    };
    await worker.change(new Map([[id, (entry) => withShown(withRelayAlert(entry, push), 'notification', push.at)]]));
    expect(inbox.get(id)?.phase).toBe('pending');

    alerter.activities('testnet', ME, [mined], 'live');
    await alerter.idle();
    await inbox.load();
    const entry = inbox.get(id)!;
    expect(entry).toMatchObject({ phase: 'confirmed', title: push.title, undelivered: false });
    expect(entry.deliveries.map(({ phase, via }) => `${phase}/${via}`)).toEqual([
      'pending/notification',
      'confirmed/notification',
    ]);
    expect(handedOver).toHaveLength(1);

    // The next state is the tab's to tell again.
    alerter.reverted('testnet', ME, [mined]);
    await alerter.idle();
    expect(inbox.get(id)?.phase).toBe('reverted');
    expect(handedOver.slice(1).map((told) => told.split(':')[0])).toEqual(['reverted']);
  });
});
