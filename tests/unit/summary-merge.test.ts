import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { type TextContext } from '../../src/domain/text/alert-text.ts';
import { OVERALL_TAG, summaryTag, summaryText, withAlertWorded } from '../../src/domain/text/notification-content.ts';
import { trayOf } from '../../src/domain/alerts/tray-view.ts';
import { toldAlone } from '../support/told.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const text: TextContext = { label: () => 'Bravo', nameOf: () => null, token: () => undefined };

const received = (n: number, phase: AlertItem['phase']): AlertItem => {
  const activity: Activity = {
    txId: `0x${n}`,
    status: phase === 'pending' ? 'pending' : 'success',
    kind: 'token_transfer',
    counterparty: OTHER,
    stxNet: BigInt(n) * 1_000_000n,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: phase === 'pending' ? null : 10,
    time: 1_700_000_000,
    sender: OTHER,
  };
  return {
    id: alertId('testnet', ME, `0x${n}`),
    network: 'testnet',
    principal: ME,
    subject: `0x${n}`,
    phase,
    activity,
    amount: null,
    at: 0,
    catchUp: false,
  };
};
/** What the tray shows for these alerts stored in one summary (their address's, or the overall one). */
const told = (items: AlertItem[], context = text, tag = summaryTag('testnet', ME), away = false) =>
  trayOf(
    items.map((item) => withAlertWorded(undefined, item, context, { tag, ...(away ? { away } : {}) })),
    [],
  );
const summary = (items: AlertItem[]) => told(items)[0]!;
const overall = (items: AlertItem[], context = text, away = false) => told(items, context, OVERALL_TAG, away)[0]!;
/** Learned in this order: the newest first in a summary. */
const learned = (items: AlertItem[]) => items.map((item, index) => ({ ...item, at: index }));

/** How many alerts a summary's body lists: its lines, with "and N more" counting N. */
const listed = (body: string): number => {
  const lines = body.split('\n');
  const more = /^and (\d+) more$/.exec(lines.at(-1) ?? '');
  return more ? lines.length - 1 + Number(more[1]) : lines.length;
};

describe('a summary, as the tray tells it from the inbox', () => {
  it('counts in its title exactly what its body lists, as it grows', () => {
    const two = summary(learned([received(1, 'pending'), received(2, 'pending')]));
    expect(two.title).toBe('2 new transactions on Bravo');
    expect(two.body).toBe('Receiving 2.00 STX — pending\nReceiving 1.00 STX — pending');
    expect(listed(two.body)).toBe(2);
    const bigger = summary(learned([1, 2, 3, 4, 5].map((n) => received(n, 'pending'))));
    expect(bigger.title).toBe('5 new transactions on Bravo');
    expect(listed(bigger.body)).toBe(5);
  });

  it('tells a confirmation in the line of its pending state, counting the transaction once', () => {
    const pending = summary([received(1, 'pending'), received(2, 'pending')]);
    const mined = summary([received(1, 'confirmed'), received(2, 'pending')]);
    expect(mined.title).toBe('2 new transactions on Bravo');
    expect(mined.body).toBe('Received 1.00 STX\nReceiving 2.00 STX — pending');
    expect(mined.data.ids).toEqual(pending.data.ids);
    expect(mined.phases).toEqual({
      [received(1, 'confirmed').id]: 'confirmed',
      [received(2, 'pending').id]: 'pending',
    });
  });

  it('tells a summary of one as that alert, its address below, and grows it into a count', () => {
    const one = summary([received(1, 'pending')]);
    expect([one.title, one.body, one.tag]).toEqual(['Receiving 1.00 STX — pending', 'Bravo', `summary:testnet:${ME}`]);
    const away = overall([{ ...received(1, 'confirmed'), catchUp: true }], text, true);
    expect([away.title, away.body]).toEqual(['While you were away: Received 1.00 STX', 'Bravo']);
    expect(summary([received(1, 'pending'), received(2, 'pending')]).title).toBe('2 new transactions on Bravo');
  });

  it('names each line’s address in the overall summary, where lines of several addresses meet', () => {
    const named: TextContext = { ...text, label: (principal) => (principal === ME ? 'Bravo' : 'Delta') };
    const theirs = { ...received(2, 'pending'), id: alertId('testnet', OTHER, '0x2'), principal: OTHER };
    const both = overall(
      [received(1, 'pending'), { ...theirs, subject: '0x3', id: alertId('testnet', OTHER, '0x3') }],
      named,
    );
    expect(both.title).toBe('2 new transactions on 2 addresses');
    expect(both.body.split('\n')).toEqual(['Bravo: Receiving 1.00 STX — pending', expect.stringMatching(/^Delta: /)]);
    // An address's own summary is headed by its name: its lines need not say it again.
    expect(summary([received(1, 'pending'), received(2, 'pending')]).body).not.toMatch(/Bravo/);
  });

  it('counts a transaction once, whichever of its watched addresses each side is told for, its sides on one line', () => {
    const named: TextContext = { ...text, label: (principal) => (principal === ME ? 'Bravo' : 'Delta') };
    // 0x2 is one transfer between the two watched addresses: Delta's side and Bravo's.
    const sent = { ...received(2, 'pending'), id: alertId('testnet', OTHER, '0x2'), principal: OTHER };
    const two = overall([received(1, 'pending'), sent, received(2, 'pending')], named);
    expect(two.title).toBe('2 new transactions on 2 addresses');
    expect(two.body.split('\n')).toEqual([
      'Bravo: Receiving 1.00 STX — pending',
      expect.stringMatching(/^Delta: .*; Bravo: Receiving 2.00 STX — pending$/),
    ]);
    // Grown by three more transactions: "and N more" counts transactions too.
    const five = overall([received(1, 'pending'), sent, ...[2, 3, 4, 5].map((n) => received(n, 'pending'))], named);
    expect(five.title).toBe('5 new transactions on 2 addresses');
    expect(listed(five.body)).toBe(5);
    // One transaction alone is told in its words, never "1 new transaction": a transfer between the two watched
    // addresses in its pair's, as its own notification says it (each side keeps its line in the summary's data).
    const alone = overall([sent, received(2, 'pending')], named);
    expect([alone.title, alone.body.split('\n')]).toEqual([
      '2.00 STX · Delta → Bravo — pending',
      ['Fee 0.00018 STX, paid by Delta'],
    ]);
    expect(alone.data.summary?.lines?.map((line) => [line.who, line.title])).toEqual([
      ['Delta', toldAlone(sent, named).title],
      ['Bravo', 'Receiving 2.00 STX — pending'],
    ]);
    // A line kept before lines named their address is told by its words alone, never after an empty name.
    const kept = summaryText(
      [sent.id, received(2, 'pending').id],
      {
        subject: '2 addresses',
        away: false,
        lines: [
          { id: sent.id, phase: 'pending', title: 'Sending 2.00 STX — pending', who: 'Delta' },
          { id: received(2, 'pending').id, phase: 'pending', title: 'Receiving 2.00 STX — pending' },
        ],
      },
      true,
    );
    expect(kept.body.split('\n')).toEqual(['Delta', 'Receiving 2.00 STX — pending']);
  });
});
