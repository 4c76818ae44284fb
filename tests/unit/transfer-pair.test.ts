import { describe, expect, it } from 'vitest';
import { alertId, emptyPlanState, planNotices, type AlertItem } from '../../src/domain/alert-plan.ts';
import { noticeContent, type TextContext } from '../../src/domain/alert-text.ts';
import type { Activity } from '../../src/domain/snapshot.ts';
import { addToBurst } from '../../src/domain/toast-burst.ts';
import { viewBurst } from '../../src/domain/toast-view.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const text: TextContext = {
  label: (principal) => (principal === ALICE ? 'Alice' : principal === WALKER ? 'Walker' : ''),
  nameOf: () => null,
  token: () => undefined,
};

/** One 4.30 STX transfer from Alice to Walker, as each side sees it. */
const side = (principal: string, phase: AlertItem['phase'] = 'pending', tx = '0xaa'): AlertItem => {
  const activity: Activity = {
    txId: tx,
    status: phase === 'pending' ? 'pending' : 'success',
    kind: 'token_transfer',
    counterparty: principal === ALICE ? WALKER : ALICE,
    stxNet: principal === ALICE ? -4_300_180n : 4_300_000n,
    fee: 180n,
    memo: 'rent',
    contractCall: null,
    blockHeight: phase === 'pending' ? null : 12,
    time: 1_700_000_000,
    sender: ALICE,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: WALKER, amount: 4_300_000n },
    ],
  };
  return {
    id: alertId('testnet', principal, tx),
    network: 'testnet',
    principal,
    subject: tx,
    phase,
    activity,
    amount: null,
    at: 0,
    catchUp: false,
  };
};

describe('a transfer between two watched addresses', () => {
  it('is one notification when both sides arrive together, carrying both alerts', () => {
    const { notices } = planNotices([side(ALICE), side(WALKER)], emptyPlanState(), 0, () => null);
    expect(notices).toHaveLength(1);
    const content = noticeContent(notices[0]!, text);
    expect(content.title).toBe('Alice → Walker 4.30 STX — pending');
    expect(content.body).toBe('“rent”\nFee 0.00018 STX, paid by Alice');
    expect(content.data.ids).toEqual([side(ALICE).id, side(WALKER).id]);
    expect(content.tag).toBe(`tx:${side(ALICE).id}`);
  });

  it('replaces the sender\u2019s notification when the receiving side arrives in a later batch', () => {
    const told = new Map<string, 'single' | 'summary'>();
    const first = planNotices([side(ALICE)], emptyPlanState(), 0, (id) => told.get(id) ?? null);
    expect(noticeContent(first.notices[0]!, text).title).toBe('Sending 4.30 STX — pending');
    told.set(side(ALICE).id, 'single');
    const second = planNotices([side(WALKER)], first.state, 50, (id) => told.get(id) ?? null);
    const content = noticeContent(second.notices[0]!, text);
    expect(second.notices).toHaveLength(1);
    expect(content.title).toBe('Alice → Walker 4.30 STX — pending');
    expect(content.tag).toBe(`tx:${side(ALICE).id}`);
    // Mined, the sides again one after the other: the confirmation is told as one as well.
    told.set(side(WALKER).id, 'single');
    const mined = planNotices([side(ALICE, 'confirmed')], second.state, 100, (id) => told.get(id) ?? null);
    const last = planNotices([side(WALKER, 'confirmed')], mined.state, 150, (id) => told.get(id) ?? null);
    expect(noticeContent(last.notices[0]!, text).title).toBe('Alice → Walker 4.30 STX');
  });

  it('leaves a receiving side already told on its own as it is (its notification would stay behind)', () => {
    const shownAs = (id: string) => (id === side(WALKER).id ? 'single' : null);
    const { notices } = planNotices([side(ALICE), side(WALKER, 'pending')], emptyPlanState(), 0, shownAs);
    expect(notices.map((notice) => noticeContent(notice, text).title).sort()).toEqual(
      ['Receiving 4.30 STX — pending', 'Sending 4.30 STX — pending'].sort(),
    );
  });

  it('counts as one alert in a toast burst', () => {
    const pair = noticeContent(
      planNotices([side(ALICE), side(WALKER)], emptyPlanState(), 0, () => null).notices[0]!,
      text,
    );
    const other = noticeContent(
      planNotices([side(ALICE, 'pending', '0xbb')], emptyPlanState(), 0, () => null).notices[0]!,
      text,
    );
    expect(viewBurst(addToBurst(addToBurst(null, pair), other)).title).toBe('2 new alerts');
    expect(viewBurst(addToBurst(null, pair)).title).toBe('Alice → Walker 4.30 STX — pending');
  });
});
