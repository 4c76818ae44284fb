import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { TextContext } from '../../src/domain/text/alert-text.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { TrayModel } from '../support/told.ts';

// One payment from an address nobody watches to two watched ones (a send-many, an exchange's batch payout): the two
// sides are one transaction, so one notification, and each side's receipt must be said on it. Before, the
// notification took the newest side's words alone and the other side was told by the inbox only: a watched address
// received funds and no notification said so.

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const PAYER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const SEND_MANY = `${PAYER}.send-many`;
const TX = `0x${'5e'.repeat(32)}`;
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);
const text: TextContext = { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined };

const paid = (principal: string, amount: bigint, at: number): AlertItem => {
  const activity: Activity = {
    txId: TX,
    status: 'success',
    kind: 'contract_call',
    counterparty: PAYER,
    stxNet: amount,
    fee: 0n,
    memo: null,
    contractCall: { contractId: SEND_MANY, functionName: 'send-many' },
    blockHeight: 12,
    time: 1_700_000_000,
    sender: PAYER,
    movements: [
      { type: 'stx', kind: 'transfer', assetIdentifier: 'STX', sender: PAYER, recipient: ALICE, amount: 5_000_000n },
      { type: 'stx', kind: 'transfer', assetIdentifier: 'STX', sender: PAYER, recipient: WALKER, amount: 3_000_000n },
    ],
  };
  const id = alertId('testnet', principal, TX);
  return {
    id,
    network: 'testnet',
    principal,
    subject: TX,
    phase: 'confirmed',
    activity,
    amount: null,
    at,
    catchUp: false,
  };
};

describe('one payment to two watched addresses from one nobody watches', () => {
  for (const batches of ['one batch', 'two batches'] as const)
    it(`is one notification that says what each received (${batches})`, () => {
      const tray = new TrayModel(text, { watched: (_, principal) => labels.has(principal) });
      const alice = paid(ALICE, 5_000_000n, 1);
      const walker = paid(WALKER, 3_000_000n, 2);
      if (batches === 'one batch') tray.batch([alice, walker], 1_000);
      else {
        tray.batch([alice], 1_000);
        tray.batch([walker], 2_000);
      }
      const onScreen = [...tray.screen.values()];
      expect(onScreen).toHaveLength(1);
      const [shown] = onScreen;
      expect([...shown!.data.ids].sort()).toEqual([alice.id, walker.id].sort());
      const words = `${shown!.title}\n${shown!.body}`;
      expect(words).toMatch(/Received 5\.00 STX/);
      expect(words).toMatch(/Received 3\.00 STX/);
      expect(words).toMatch(/Alice/);
      expect(words).toMatch(/Walker/);
    });
});
