import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { type TextContext } from '../../src/domain/text/alert-text.ts';
import { mergeSummary, noticeContent } from '../../src/domain/text/notification-content.ts';
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
const summary = (items: AlertItem[]) =>
  noticeContent({ kind: 'summary', network: 'testnet', principal: ME, items, away: false }, text);

/** How many alerts a summary's body lists: its lines, with "and N more" counting N. */
const listed = (body: string): number => {
  const lines = body.split('\n');
  const more = /^and (\d+) more$/.exec(lines.at(-1) ?? '');
  return more ? lines.length - 1 + Number(more[1]) : lines.length;
};

describe('a summary merged with the one on screen', () => {
  it('counts in its title exactly what its body lists', () => {
    const onScreen = summary([received(1, 'pending')]);
    const merged = mergeSummary(onScreen.data, summary([received(2, 'pending')]));
    expect(merged.title).toBe('2 new transactions on Bravo');
    expect(merged.body).toBe('Receiving 2.00 STX — pending\nReceiving 1.00 STX — pending');
    expect(listed(merged.body)).toBe(2);
    const bigger = mergeSummary(merged.data, summary([3, 4, 5].map((n) => received(n, 'pending'))));
    expect(bigger.title).toBe('5 new transactions on Bravo');
    expect(listed(bigger.body)).toBe(5);
  });

  it('replaces a pending line by its confirmation, counting the transaction once', () => {
    const onScreen = summary([received(1, 'pending'), received(2, 'pending')]);
    const merged = mergeSummary(onScreen.data, summary([received(1, 'confirmed')]));
    expect(merged.title).toBe('2 new transactions on Bravo');
    expect(merged.body).toBe('Received 1.00 STX\nReceiving 2.00 STX — pending');
    expect(merged.phases).toEqual({
      [received(1, 'confirmed').id]: 'confirmed',
      [received(2, 'pending').id]: 'pending',
    });
  });

  it('still counts a summary shown before lines were kept, under "and N more"', () => {
    const old = { ...summary([received(1, 'pending')]).data, summary: { subject: 'Bravo', away: false } };
    const merged = mergeSummary(old, summary([received(2, 'pending')]));
    expect(merged.title).toBe('2 new transactions on Bravo');
    expect(merged.body).toBe('Receiving 2.00 STX — pending\nand 1 more');
  });
});
