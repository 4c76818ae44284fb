import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import type { TextContext } from '../../src/domain/text/alert-text.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { OVERALL_TAG } from '../../src/domain/text/notification-content.ts';
import { TrayModel } from '../support/told.ts';

// A transfer between two watched addresses told in a summary alone (their singles for the minute used up): the
// summary of one transaction says it in the pair's words, "2,437.00 STX · Carol → Alice — pending", as its own
// notification would. A new user's walk saw "Sending 2,437.00 STX — pending / Carol / Alice: Receiving 2,437.00 STX —
// pending": one side's words over the other's.

const CAROL = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TX = `0x${'2a'.repeat(32)}`;
const labels = new Map([
  [CAROL, 'Carol'],
  [ALICE, 'Alice'],
]);
const text: TextContext = { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined };

const side = (principal: string): AlertItem => {
  const activity: Activity = {
    txId: TX,
    status: 'pending',
    kind: 'token_transfer',
    counterparty: principal === CAROL ? ALICE : CAROL,
    stxNet: principal === CAROL ? -2_437_000_180n : 2_437_000_000n,
    fee: principal === CAROL ? 180n : 0n,
    memo: null,
    contractCall: null,
    blockHeight: null,
    time: 1_700_000_000,
    sender: CAROL,
    transferAmount: 2_437_000_000n,
  };
  const id = alertId('testnet', principal, TX);
  return {
    id,
    network: 'testnet',
    principal,
    subject: TX,
    phase: 'pending',
    activity,
    amount: null,
    at: 0,
    catchUp: false,
  };
};

describe('a transfer between two watched addresses alone in a summary', () => {
  it("is said in the pair's words", () => {
    // No singles left this minute: a new transaction's sides fold into the overall summary.
    const tray = new TrayModel(text, {
      limits: { singles: 0, windowMs: 60_000, perBatch: 4 },
      watched: (_, principal) => labels.has(principal),
    });
    tray.batch([side(CAROL), side(ALICE)], 1_000);
    const onScreen = [...tray.screen.values()];
    expect(onScreen.map((content) => content.tag)).toEqual([OVERALL_TAG]);
    const [summary] = onScreen;
    expect(summary!.title).toBe('2,437.00 STX · Carol → Alice — pending');
    expect(summary!.body).not.toMatch(/Sending|Receiving/);
    // Clicked, it opens the transaction where it was received, as the pair's own notification does.
    expect(summary!.data.path).toBe(`/address/${ALICE}#tx-${TX}`);
    // Each side keeps its own line, in its own words, for whatever joins the summary later.
    expect(summary!.data.summary?.lines?.map((line) => line.title)).toEqual([
      expect.stringMatching(/^(Sending|Receiving) 2,437\.00 STX/),
      expect.stringMatching(/^(Sending|Receiving) 2,437\.00 STX/),
    ]);
  });
});
