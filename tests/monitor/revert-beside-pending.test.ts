import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import type { Network } from '../../src/domain/network.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { stxTransfer } from '../support/stx-transfer.ts';
import { memoryTray } from './truth/tray.ts';

// Walker was told he received 4.30 STX from Alice. Alice is added later, the transfer in her history. A re-org takes
// its block, and the app hears its two sides in the mempool one after the other: Alice's as plain pending (never told
// mined to her), Walker's as the revert, "Reverted — back in the mempool". Whichever comes first, the tray rings once
// for what it did not show: Walker's revert, the first word that his 4.30 STX are not his, rings though the
// transaction was on screen pending (the truth test's seed 152971); Alice's pending after that revert brings nothing
// new to hear.

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TX = `0x${'d8'.repeat(32)}`;
const ADDED_AT = 1_700_000_000_000;
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);

/** The 4.30 STX transfer from Alice to Walker, as `principal` sees it, pending or mined at height 12. */
const transfer = (principal: string, mined: boolean): Activity =>
  stxTransfer(principal, TX, mined, ALICE, WALKER, ADDED_AT / 1000 + 60);

/** Walker watched and told the transfer received; Alice added once it was mined (history to her, never told). */
async function toldReceived(name: string) {
  const inbox = new Inbox(createStore(`${name}-inbox`, 'alerts'));
  const noise: string[] = [];
  const tray = memoryTray(inbox, (problem) => noise.push(problem));
  const watching = new Set([WALKER]);
  const alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`${name}-ledgers`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`${name}-settings`, 'records')),
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
  expect(inbox.get(WALKER_SIDE)).toMatchObject({ phase: 'confirmed', title: 'Received 4.30 STX' });
  // Her first sync at height 12.
  watching.add(ALICE);
  alerter.baseline('testnet', ALICE, [], 12);
  await alerter.idle();
  // A re-org from height 11 takes the transfer's block.
  alerter.forked('testnet', WALKER, 11);
  alerter.forked('testnet', ALICE, 11);
  return { alerter, inbox, noise, shown: tray.shown };
}

const WALKER_SIDE = alertId('testnet', WALKER, TX);
const ALICE_SIDE = alertId('testnet', ALICE, TX);

describe('a revert told beside a side of its transaction in the mempool', () => {
  it('rings when the other side was on screen pending first: the revert is a state the tray did not show', async () => {
    const { alerter, inbox, noise, shown } = await toldReceived('revert-after-pending');
    alerter.activities('testnet', ALICE, [transfer(ALICE, false)], 'live');
    await alerter.idle();
    const pending = shown.at(-1)!;
    expect(pending.title).toMatch(/— pending$/);
    expect(pending.phases).toEqual({ [ALICE_SIDE]: 'pending', [WALKER_SIDE]: 'confirmed' });

    alerter.reverted('testnet', WALKER, [transfer(WALKER, true)]);
    alerter.activities('testnet', WALKER, [transfer(WALKER, false)], 'live');
    await alerter.idle();
    expect(inbox.get(WALKER_SIDE)?.title).toMatch(/^Reverted — back in the mempool: /);
    expect(shown.at(-1)).toMatchObject({ tag: pending.tag, renotify: true });
    expect(shown.at(-1)!.title).toMatch(/^Reverted — back in the mempool: /);
    expect(noise).toEqual([]);
  });

  it('does not ring again when the other side is heard pending after the revert was told', async () => {
    const { alerter, noise, shown } = await toldReceived('pending-after-revert');
    alerter.reverted('testnet', WALKER, [transfer(WALKER, true)]);
    alerter.activities('testnet', WALKER, [transfer(WALKER, false)], 'live');
    await alerter.idle();
    expect(shown.at(-1)).toMatchObject({ renotify: true });
    expect(shown.at(-1)!.title).toMatch(/^Reverted — back in the mempool: /);

    // Alice's side, plain pending to her: the transaction was on screen in the mempool already.
    alerter.activities('testnet', ALICE, [transfer(ALICE, false)], 'live');
    await alerter.idle();
    expect(shown.at(-1)!.phases).toEqual({ [ALICE_SIDE]: 'pending', [WALKER_SIDE]: 'pending' });
    expect(shown.at(-1)).toMatchObject({ renotify: false });
    expect(noise).toEqual([]);
  });
});
