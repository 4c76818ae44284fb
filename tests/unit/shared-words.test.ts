import { describe, expect, it } from 'vitest';
import type { AlertPhase } from '../../src/domain/alerts/alert-ledger.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { TextContext } from '../../src/domain/text/alert-text.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { alertWords } from '../../src/domain/text/notification-content.ts';
import { SharedWords } from '../../src/relay/engine/shared-words.ts';

// The relay words an alert once for all the devices that watch its address (issue 38: one judgement per principal,
// not per device × principal). What each device is told must be exactly what it would have been told had it worded
// the alert itself: its own poisoning check, and the names the relay knows at the time.

const WALKER = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const LOOKALIKE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRKZAG';
const TX = `0x${'ab'.repeat(32)}`;

const transfer = (sender: string): Activity => ({
  txId: TX,
  status: 'success',
  kind: 'token_transfer',
  counterparty: sender,
  stxNet: 4_300_000n,
  fee: 180n,
  memo: 'rent',
  contractCall: null,
  blockHeight: 10,
  time: 1_700_000_000,
  sender,
  nonce: 3,
  movements: [{ type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender, recipient: WALKER, amount: 4_300_000n }],
});

const item = (activity: Activity | null, change: Partial<AlertItem> = {}): AlertItem => ({
  id: `testnet:${WALKER}:${TX}`,
  network: 'testnet',
  principal: WALKER,
  subject: TX,
  phase: 'confirmed',
  activity,
  amount: null,
  at: 1_700_000_000_000,
  catchUp: false,
  ...change,
});

/** A relay device's words context: no labels, the relay's names, its own poisoning check. */
function device(names: Map<string, string>, trusts: string | null): TextContext {
  return {
    label: () => '',
    nameOf: (principal) => names.get(principal) ?? null,
    token: () => undefined,
    // The lookalike imitates Alice: only a device that trusts her (she is among its own) is warned.
    suspect: (activity) =>
      trusts === ALICE && activity.sender === LOOKALIKE ? { sender: LOOKALIKE, imitates: ALICE } : null,
  };
}

describe('words shared by the devices of one address', () => {
  it('are built once for devices that word them alike, and each device gets its own words', () => {
    const names = new Map<string, string>();
    let learned = 0;
    const shared = new SharedWords(() => learned);
    const activity = transfer(LOOKALIKE);
    const plain = [device(names, null), device(names, WALKER), device(names, null)];
    const fooled = device(names, ALICE);
    for (const phase of ['pending', 'confirmed', 'failed', 'reverted', 'dropped'] as AlertPhase[]) {
      for (const afterRevert of [undefined, 'told', 'untold'] as const) {
        const told = item(activity, { phase, ...(afterRevert ? { afterRevert } : {}) });
        const first = shared.of(told, plain[0]!);
        expect(first).toEqual(alertWords(told, plain[0]!));
        // Those whose poisoning check finds nothing share one build.
        for (const other of plain.slice(1)) expect(shared.of(told, other)).toBe(first);
        // One that trusts the address imitated is warned, as it would be alone.
        const warned = shared.of(told, fooled);
        expect(warned).toEqual(alertWords(told, fooled));
        if (phase !== 'failed') expect(warned.title).toContain('Possible address-poisoning');
        expect(shared.of(told, device(names, ALICE))).toBe(warned);
      }
    }
    // A name learned since: the words say it, for the devices worded after.
    const before = shared.of(item(activity), plain[0]!);
    names.set(WALKER, 'walker.btc');
    learned += 1;
    const after = shared.of(item(activity), plain[1]!);
    expect(after).not.toBe(before);
    expect(after).toEqual(alertWords(item(activity), plain[1]!));
    expect(after.body).toContain('walker.btc');
  });

  it('are worded each time where there is no transaction to key on', () => {
    const shared = new SharedWords(() => 0);
    const context = device(new Map(), null);
    const lock = item(null, { phase: 'locked', subject: 'lock:12', amount: 60_000_000_000n });
    expect(shared.of(lock, context)).toEqual(alertWords(lock, context));
    const recalled = item(null, { phase: 'reverted', recalled: { title: 'Received 4.30 STX', body: 'ST3TBR…J7X4' } });
    expect(shared.of(recalled, context)).toEqual(alertWords(recalled, context));
    // Another transaction of the same address is never given the first one's words.
    const other: Activity = {
      ...transfer(ALICE),
      txId: `0x${'cd'.repeat(32)}`,
      movements: [
        { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: WALKER, amount: 1n },
      ],
    };
    expect(shared.of(item(transfer(ALICE)), context)).not.toEqual(shared.of(item(other), context));
  });
});
