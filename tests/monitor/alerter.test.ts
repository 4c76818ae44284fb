import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { itemTag, summaryTag, type NotificationContent } from '../../src/domain/text/notification-content.ts';
import { pairTag } from '../../src/domain/alerts/transfer-pair.ts';
import { withAlert } from '../../src/domain/alerts/inbox-alert.ts';
import type { PairWords } from '../../src/domain/alerts/transfer-pair.ts';
import { emptySnapshot, type Activity } from '../../src/domain/state/snapshot.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { allShown, memoryTray } from './truth/tray.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const ADDED_AT = 1_700_000_000_000;

const received = (txId: string): Activity => ({
  txId,
  status: 'success',
  kind: 'token_transfer',
  counterparty: OTHER,
  stxNet: 1_250_000_000n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: 10,
  time: ADDED_AT / 1000 + 60,
});

let stores = 0;

/** The stores one tab would have; a second call with the same `name` is the same browser profile after a restart. */
function tab(name: string, onScreen: NotificationContent[] = []) {
  const inbox = new Inbox(createStore(`inbox-${name}`, 'alerts'));
  const tray = memoryTray(inbox, undefined, new Map(onScreen.map((content) => [content.tag, content])));
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`ledgers-${name}`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`settings-${name}-${++stores}`, 'records')),
    watched: (network, principal) => (network === 'testnet' && principal === ME ? { addedAt: ADDED_AT } : undefined),
    snapshot: () => undefined,
    text: { label: () => 'Treasury', nameOf: () => null, token: () => undefined },
    // As the service worker tells them (sw/tray.ts): the tray made to match the inbox.
    deliver: tray.deliver,
    now: () => ADDED_AT + 120_000,
  });
  return { inbox, alerter, shown: tray.shown };
}

/** What a tab that closed right after storing an alert (before its ledger and before showing) left behind. */
async function storedNotShown(
  name: string,
  activity: Activity,
  phase: AlertItem['phase'] = 'confirmed',
  title = 'Received 1,250 STX',
  principal = ME,
  pair?: PairWords,
): Promise<string> {
  const inbox = new Inbox(createStore(`inbox-${name}`, 'alerts'));
  const id = alertId('testnet', principal, activity.txId);
  const item: AlertItem = {
    id,
    network: 'testnet',
    principal,
    subject: activity.txId,
    phase,
    activity,
    amount: null,
    at: ADDED_AT + 60_000,
    catchUp: false,
  };
  await inbox.change(new Map([[id, (entry) => withAlert(entry, item, { title, body: '', path: '/', pair })]]));
  return id;
}

/** A notification the tray shows, left by a tab that closed. */
const shownBefore = (
  tag: string,
  title: string,
  data: NotificationContent['data'],
  body = '',
): NotificationContent => ({ tag, title, body, renotify: true, data });

describe('the alerter across a tab closing mid-alert', () => {
  it('shows an alert stored but never shown exactly once, though the sync brings its transaction again', async () => {
    const id = await storedNotShown('closed-before-show', received('0x01'));
    const { inbox, alerter, shown } = tab('closed-before-show');
    await alerter.start([]);
    alerter.activities('testnet', ME, [received('0x01')], 'sync');
    await alerter.idle();
    expect(shown.map((content) => content.data.ids)).toEqual([[id]]);
    expect(inbox.get(id)).toMatchObject({
      undelivered: false,
      deliveries: [{ phase: 'confirmed', via: 'notification' }],
    });

    const restarted = tab('closed-before-show');
    await restarted.alerter.start([]);
    restarted.alerter.activities('testnet', ME, [received('0x01')], 'live');
    await restarted.alerter.idle();
    expect(restarted.shown).toEqual([]);
  });

  it('records, and does not show again, an alert the system still shows (the tab closed just after showing it)', async () => {
    const id = await storedNotShown('closed-after-show', received('0x02'));
    const onScreen = [shownBefore(itemTag(id), 'Received 1,250 STX', { ids: [id], path: '/', summary: null })];
    const { inbox, alerter, shown } = tab('closed-after-show', onScreen);
    await alerter.start([]);
    expect(shown).toEqual([]);
    expect(inbox.get(id)).toMatchObject({
      undelivered: false,
      deliveries: [{ phase: 'confirmed', via: 'notification' }],
    });
  });

  it('records, and does not show again, the sides of a transfer the system shows as the pair', async () => {
    const side = { phase: 'confirmed' as const, title: 'Received 1,250 STX', body: '' };
    const ids = [alertId('testnet', ME, '0x06'), alertId('testnet', OTHER, '0x06')];
    const pair: PairWords = {
      key: 'testnet:0x06',
      from: OTHER,
      to: ME,
      title: '1,250 STX · Walker → Treasury',
      body: 'Fee 0.00018 STX, paid by Walker',
      sides: { [ids[0]!]: side, [ids[1]!]: { ...side, title: 'Sent 1,250 STX' } },
    };
    // The closing tab stored both sides in one batch, and the tray shows them as one.
    const id = await storedNotShown('closed-after-pair', received('0x06'), 'confirmed', side.title, ME, pair);
    await storedNotShown('closed-after-pair', received('0x06'), 'confirmed', 'Sent 1,250 STX', OTHER, pair);
    const onScreen = [shownBefore(pairTag(pair.key), pair.title, { ids, path: '/', summary: null, pair }, pair.body)];
    const { inbox, alerter, shown } = tab('closed-after-pair', onScreen);
    await alerter.start([]);
    expect(shown).toEqual([]);
    expect(inbox.get(id)).toMatchObject({
      undelivered: false,
      deliveries: [{ phase: 'confirmed', via: 'notification' }],
    });
  });

  it('shows a drop left unshown even though a summary on screen holds its transaction', async () => {
    const dropped = { ...received('0x05'), status: 'dropped' as const, blockHeight: null };
    const id = await storedNotShown('dropped-after-summary', dropped, 'dropped', 'Dropped: Receiving 1,250 STX');
    const onScreen = [
      shownBefore(summaryTag('testnet', ME), '5 new transactions on Treasury', {
        ids: [id],
        path: '/',
        summary: { subject: 'Treasury', away: false },
      }),
    ];
    const { inbox, alerter, shown } = tab('dropped-after-summary', onScreen);
    await alerter.start([]);
    expect(shown.map((content) => [content.title, content.data.ids])).toEqual([['Dropped: Receiving 1,250 STX', [id]]]);
    expect(inbox.get(id)).toMatchObject({
      undelivered: false,
      deliveries: [{ phase: 'dropped', via: 'notification' }],
    });
  });

  it('judges nothing before the alerts left unshown are shown', async () => {
    const id = await storedNotShown('queued-early', received('0x03'));
    const { alerter, shown } = tab('queued-early');
    // The monitors report before start() is called: the alerter still recovers first, and tells the new one after.
    alerter.activities('testnet', ME, [received('0x03'), received('0x04')], 'live');
    await alerter.start([]);
    await alerter.idle();
    expect(shown.flatMap((content) => content.data.ids)).toEqual([id, alertId('testnet', ME, '0x04')]);
  });

  it('judges the catch-up before what is handed over after start(), though its ledgers are still being read', async () => {
    const pending: Activity = { ...received('0x08'), status: 'pending', blockHeight: null };
    const confirmed = received('0x08');
    const id = alertId('testnet', ME, '0x08');
    // Told pending before the restart (a relay instance killed, another taking its devices over).
    const before = tab('catch-up-first');
    await before.alerter.start([]);
    before.alerter.activities('testnet', ME, [pending], 'live');
    await before.alerter.idle();
    expect(before.inbox.get(id)?.phase).toBe('pending');

    // Restarted: the snapshot says mined; its ledgers take a while to read.
    let read: () => void = () => undefined;
    const reading = new Promise<void>((resolve) => (read = resolve));
    const stored = new AlertLedgerStore(createStore('ledgers-catch-up-first', 'by-address'));
    const inbox = new Inbox(createStore('inbox-catch-up-first', 'alerts'));
    const alerter = new Alerter({
      ledgers: { load: () => reading.then(() => stored.load()), save: (ledgers) => stored.save(ledgers) },
      inbox,
      settings: new AlertSettingsStore(createStore(`settings-catch-up-first-${++stores}`, 'records')),
      watched: (network, principal) => (network === 'testnet' && principal === ME ? { addedAt: ADDED_AT } : undefined),
      snapshot: () => undefined,
      text: { label: () => 'Treasury', nameOf: () => null, token: () => undefined },
      deliver: allShown,
      now: () => ADDED_AT + 180_000,
    });
    const started = alerter.start([{ ...emptySnapshot(ME, 'testnet'), recent: [confirmed] }]);
    // Learned after that snapshot: its block was orphaned, the transaction back in the mempool.
    alerter.reverted('testnet', ME, [confirmed]);
    read();
    await started;
    await alerter.idle();
    // Judged the other way round, the older snapshot's confirmation would be the last word.
    expect(inbox.get(id)?.phase).toBe('reverted');
  });
});
