import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Network } from '../../src/domain/network.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { memoryTray } from './truth/tray.ts';

// Walker was told he received 4.30 STX from Alice. Alice is added later, the transfer in her history. A re-org takes
// its block: the app hears Alice's side in the mempool first (plain pending to her: never told mined), and Walker's
// revert a moment later. The notification then says "Alice → Walker … — pending"; Walker's revert, the first
// word that his 4.30 STX are not his, is news and rings, though the transaction was already on screen pending (the
// truth test's seed 152971, whose tray model counted a side back in the mempool as plain pending).

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TX = `0x${'d8'.repeat(32)}`;
const ADDED_AT = 1_700_000_000_000;
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);

/** The 4.30 STX transfer from Alice to Walker, as `principal` sees it, pending or mined at height 12. */
function transfer(principal: string, mined: boolean): Activity {
  return {
    txId: TX,
    status: mined ? 'success' : 'pending',
    kind: 'token_transfer',
    counterparty: principal === ALICE ? WALKER : ALICE,
    stxNet: principal === ALICE ? -4_300_180n : 4_300_000n,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: mined ? 12 : null,
    time: ADDED_AT / 1000 + 60,
    sender: ALICE,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: WALKER, amount: 4_300_000n },
    ],
  };
}

describe('a revert told beside a side of its transaction already pending on screen', () => {
  it('rings: the revert is a state the tray did not show', async () => {
    const inbox = new Inbox(createStore('revert-beside-pending-inbox', 'alerts'));
    const noise: string[] = [];
    const tray = memoryTray(inbox, (problem) => noise.push(problem));
    const watching = new Set([WALKER]);
    const alerter = new Alerter({
      ledgers: new AlertLedgerStore(createStore('revert-beside-pending-ledgers', 'by-address')),
      inbox,
      settings: new AlertSettingsStore(createStore('revert-beside-pending-settings', 'records')),
      watched: (network: Network, principal: string) =>
        network === 'testnet' && watching.has(principal) ? { addedAt: ADDED_AT } : undefined,
      snapshot: () => undefined,
      text: { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined },
      deliver: tray.deliver,
      now: () => ADDED_AT + 120_000,
    });
    await alerter.start([]);
    alerter.activities('testnet', WALKER, [], 'sync');
    alerter.activities('testnet', WALKER, [transfer(WALKER, false)], 'live');
    alerter.activities('testnet', WALKER, [transfer(WALKER, true)], 'live');
    await alerter.idle();
    const walker = alertId('testnet', WALKER, TX);
    expect(inbox.get(walker)).toMatchObject({ phase: 'confirmed', title: 'Received 4.30 STX' });

    // Alice is added once the transfer is mined (her first sync at height 12: it is history to her, never told).
    watching.add(ALICE);
    alerter.baseline('testnet', ALICE, [], 12);
    await alerter.idle();

    // A re-org from height 11 takes the transfer's block: Alice's side is heard back in the mempool first.
    alerter.forked('testnet', WALKER, 11);
    alerter.forked('testnet', ALICE, 11);
    alerter.activities('testnet', ALICE, [transfer(ALICE, false)], 'live');
    await alerter.idle();
    const pending = tray.shown.at(-1)!;
    expect(pending.title).toMatch(/— pending$/);
    expect(pending.phases).toEqual({ [alertId('testnet', ALICE, TX)]: 'pending', [walker]: 'confirmed' });

    alerter.reverted('testnet', WALKER, [transfer(WALKER, true)]);
    alerter.activities('testnet', WALKER, [transfer(WALKER, false)], 'live');
    await alerter.idle();
    expect(inbox.get(walker)?.title).toMatch(/^Reverted — back in the mempool: /);
    expect(tray.shown.at(-1)).toMatchObject({ tag: pending.tag, renotify: true });
    expect(tray.shown.at(-1)!.title).toMatch(/^Reverted — back in the mempool: /);
    expect(noise).toEqual([]);
  });
});
