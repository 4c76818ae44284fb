import { describe, expect, it } from 'vitest';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import { readAlertFacts } from '../../src/domain/alerts/alert-facts-read.ts';
import { alertId, emptyPlanState, placeBatch, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { itemTag } from '../../src/domain/text/notification-content.ts';
import { deviceWords } from '../../src/domain/alerts/device-words.ts';
import { alertBody, alertTitle, type TextContext } from '../../src/domain/text/alert-text.ts';
import { TrayModel, toldAlone } from '../support/told.ts';
import { withAlert } from '../../src/domain/alerts/inbox-alert.ts';
import { inboxRows } from '../../src/domain/alerts/inbox-rows.ts';
import { naming } from '../../src/domain/text/alert-text.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';

// A re-org took a told transaction's block away and it is back in the mempool: until it is mined again, it is told as
// that revert ("Reverted — back in the mempool"), never as a plain "— pending" that hides what happened (issue 33).

const BOB = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TX = '0x228071d2';

const pending: Activity = {
  txId: TX,
  status: 'pending',
  kind: 'token_transfer',
  counterparty: ALICE,
  sender: ALICE,
  stxNet: 2_500_000n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: null,
  time: 1_700_000_000,
};

const back = (afterRevert: AlertItem['afterRevert'], principal = BOB): AlertItem => ({
  id: alertId('testnet', principal, TX),
  network: 'testnet',
  principal,
  subject: TX,
  phase: 'pending',
  activity: principal === BOB ? pending : { ...pending, stxNet: -2_500_180n, counterparty: BOB },
  amount: null,
  at: 0,
  catchUp: false,
  ...(afterRevert ? { afterRevert } : {}),
});

const labels = new Map([
  [BOB, 'Bob'],
  [ALICE, 'Alice'],
]);
const bobOnly: TextContext = {
  label: (principal) => (principal === BOB ? 'Bob' : ''),
  nameOf: () => null,
  token: () => undefined,
};
const both: TextContext = {
  label: (principal) => labels.get(principal) ?? '',
  nameOf: () => null,
  token: () => undefined,
};

describe('a transaction back in the mempool after a revert', () => {
  it('is told as the revert, with what it waits for, where a plain pending one says "— pending"', () => {
    expect(alertTitle(back(undefined), bobOnly)).toBe('Receiving 2.50 STX — pending');
    expect(alertTitle(back('told'), bobOnly)).toBe('Reverted — back in the mempool: Receiving 2.50 STX');
    expect(alertBody(back('told'), bobOnly).split('\n').at(-1)).toBe(
      'A chain re-organisation removed this transaction from its block: it waits to be mined again.',
    );
  });

  it('rings only where the revert was not told before it, as one transaction between two watched addresses too', () => {
    // Told mined, then reverted (each on the tray), then back in the mempool: the revert's words change, quietly.
    const seen = new TrayModel(both);
    const mined: Activity = { ...pending, status: 'success', blockHeight: 12 };
    seen.batch([{ ...back(undefined), phase: 'confirmed', activity: mined }]);
    seen.batch([{ ...back(undefined), phase: 'reverted', activity: mined }]);
    const [told] = seen.batch([back('told')]);
    // Heard in the same batch as the revert, it is the revert's only telling: it rings.
    const [untold] = new TrayModel(both).batch([back('untold')]);
    expect(told?.renotify).toBe(false);
    expect(untold?.renotify).toBe(true);
    expect(told?.title).toBe('Reverted — back in the mempool: Receiving 2.50 STX');
    // The pair's words, which the tray shows once both sides are on it.
    expect(untold?.data.pair?.title).toBe('Reverted — back in the mempool: 2.50 STX · Alice → Bob');
    expect(untold?.tag).toBe(`tx:testnet:${TX}`);
  });

  it('is told on its own, never retold inside the summary that told it before', () => {
    const { placed } = placeBatch([back('told')], emptyPlanState(), 0, () => 'summary');
    expect(placed).toEqual(new Map([[back('told').id, { tag: itemTag(back('told').id) }]]));
  });

  it('carries the revert in its facts, so that a device words a relayed one alike; a wrong mark is refused', () => {
    const facts = alertFacts(back('told'));
    expect(facts.afterRevert).toBe(true);
    expect(alertFacts(back(undefined))).not.toHaveProperty('afterRevert');
    const read = readAlertFacts(JSON.parse(JSON.stringify(facts)));
    expect(read.ok && read.value.afterRevert).toBe(true);
    const words = deviceWords(
      { id: back('told').id, network: 'testnet', principal: BOB, phase: 'pending', at: 0, title: '', body: '' },
      read.ok ? read.value : (undefined as never),
      { watched: new Map([[BOB, { label: 'Bob' }]]), names: new Map(), tokens: new Map() },
    );
    expect(words.title).toBe(alertTitle(back('told'), bobOnly));
    expect(readAlertFacts({ ...facts, afterRevert: 'yes' })).toEqual({
      ok: false,
      error: 'facts.afterRevert must be true, or absent',
    });
  });

  it('keeps the revert in its inbox row whichever side came last, one of them not told mined before', () => {
    const entryOf = (item: AlertItem, at: number) =>
      withAlert(
        undefined,
        { ...item, at },
        {
          title: alertTitle(item, both),
          body: alertBody(item, both),
          path: '/',
          pair: toldAlone(item, both).data.pair ?? null,
        },
      );
    // Bob was told it mined, Alice (watched since) was not: her side comes back as a plain pending, and last.
    const rows = inboxRows([entryOf(back('told'), 1), entryOf(back(undefined, ALICE), 2)], naming(both));
    expect(rows.map((row) => row.title)).toEqual(['Reverted — back in the mempool: 2.50 STX · Alice → Bob']);
  });
});
