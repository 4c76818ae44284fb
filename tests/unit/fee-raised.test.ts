import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { pairWords } from '../../src/domain/alerts/transfer-pair.ts';
import { alertBody, alertTitle, naming, type TextContext } from '../../src/domain/text/alert-text.ts';
import { supersededBy, type Activity } from '../../src/domain/state/snapshot.ts';
import { withAlert } from '../../src/domain/alerts/inbox-alert.ts';
import { inboxRows } from '../../src/domain/alerts/inbox-rows.ts';
import { besideChip } from '../../src/domain/alerts/inbox-state.ts';
import { describeActivity } from '../../src/domain/text/activity-text.ts';
import { statusLine } from '../../src/domain/text/tx-detail.ts';
import { TrayModel } from '../support/told.ts';

// A wallet's "speed up" replaces a pending transaction by the same one paying more: the replaced one is told as the
// fee raised, naming the one that took its place, never as a loss ("Dropped … this one moved nothing") (issue 33).

const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const BOB = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OLD = `0x${'a1'.repeat(32)}`;
const NEW = `0x${'b2'.repeat(32)}`;

const sending = (change: Partial<Activity> = {}): Activity => ({
  txId: OLD,
  status: 'pending',
  kind: 'token_transfer',
  counterparty: BOB,
  sender: ALICE,
  nonce: 7,
  stxNet: -2_500_180n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: null,
  time: 1_700_000_000,
  ...change,
});
const dropped = (activity: Activity): AlertItem => ({
  id: alertId('testnet', ALICE, OLD),
  network: 'testnet',
  principal: ALICE,
  subject: OLD,
  phase: 'dropped',
  activity,
  amount: null,
  at: 0,
  catchUp: false,
});
const text: TextContext = {
  label: (principal) => ({ [ALICE]: 'Alice', [BOB]: 'Bob' })[principal] ?? '',
  nameOf: () => null,
  token: () => undefined,
};

describe('a transaction replaced by a higher fee', () => {
  it('is told as the fee raised, naming its replacement, where the node says so', () => {
    const item = dropped(sending({ status: 'dropped', statusDetail: 'dropped_replace_by_fee', replacedBy: NEW }));
    expect(alertTitle(item, text)).toBe('Fee raised: Sending 2.50 STX');
    expect(alertBody(item, text).split('\n').at(-1)).toBe(
      'Replaced by 0xb2b2…b2b2, the same nonce with a higher fee: this one moved nothing.',
    );
    const pair = pairWords(item, naming(text), () => true, { title: '', body: '' });
    expect(pair?.title).toBe('Fee raised: 2.50 STX · Alice → Bob');
  });

  it('is told as dropped where it left the mempool for another reason', () => {
    const item = dropped(sending({ status: 'dropped', statusDetail: 'dropped_stale_garbage_collect' }));
    expect(alertTitle(item, text)).toBe('Dropped: Sending 2.50 STX');
    expect(alertBody(item, text)).toMatch(/It left the mempool without being mined: nothing moved\.$/);
  });

  it('is called replaced by fee when met mined under its nonce only where the mined one paid more', () => {
    const mined = (fee: bigint) => sending({ txId: NEW, status: 'success', blockHeight: 12, fee });
    const [raised] = supersededBy([sending({ statusDetail: 'pending' })], [mined(360n)]);
    expect(raised).toMatchObject({ status: 'dropped', statusDetail: 'dropped_replace_by_fee', replacedBy: NEW });
    const [reused] = supersededBy([sending({ statusDetail: 'pending' })], [mined(180n)]);
    expect(reused).toMatchObject({ status: 'dropped', replacedBy: NEW });
    expect(reused).not.toHaveProperty('statusDetail');
    expect(alertTitle(dropped(reused!), text)).toBe('Dropped: Sending 2.50 STX');
    expect(alertBody(dropped(reused!), text).split('\n').at(-1)).toBe(
      'Replaced by 0xb2b2…b2b2, mined with the same nonce: this one moved nothing.',
    );
  });

  it('is told as replaced to anyone but its signer: a cancel moves them nothing, and a sped-up one comes again', () => {
    const activity = sending({ status: 'dropped', statusDetail: 'dropped_replace_by_fee', replacedBy: NEW });
    const bobs: AlertItem = {
      ...dropped({ ...activity, stxNet: 2_500_000n, counterparty: ALICE }),
      id: alertId('testnet', BOB, OLD),
      principal: BOB,
    };
    expect(alertTitle(bobs, text)).toBe('Replaced: Receiving 2.50 STX');
    // Told as one with its signer watched: the fee raised, as its signer tells it.
    expect(pairWords(bobs, naming(text), () => true, { title: '', body: '' })?.title).toBe(
      'Fee raised: 2.50 STX · Alice → Bob',
    );
  });

  it('reads "Fee raised" on its inbox row\'s chip to its signer, "Replaced" to anyone else: never "Dropped"', () => {
    const activity = sending({ status: 'dropped', statusDetail: 'dropped_replace_by_fee', replacedBy: NEW });
    const rowOf = (principal: string) => {
      const item = { ...dropped(activity), id: alertId('testnet', principal, OLD), principal };
      const entry = withAlert(undefined, item, {
        title: alertTitle(item, text),
        body: alertBody(item, text),
        path: '/',
      });
      const [row] = inboxRows([entry], naming(text));
      return { state: row!.state, beside: besideChip(row!.title, row!.state) };
    };
    expect(rowOf(ALICE)).toEqual({
      state: 'Fee raised',
      beside: { before: 'Fee raised: ', shown: 'Sending 2.50 STX', after: '' },
    });
    expect(rowOf(BOB).state).toBe('Replaced');
    expect(rowOf(BOB).beside.before).toBe('Replaced: ');
    // Dropped for another reason, it stays "Dropped".
    const stale = sending({ status: 'dropped', statusDetail: 'dropped_stale_garbage_collect' });
    const item = dropped(stale);
    const entry = withAlert(undefined, item, { title: alertTitle(item, text), body: alertBody(item, text), path: '/' });
    expect(inboxRows([entry], naming(text))[0]!.state).toBe('Dropped');
  });

  it('reads in the address history and the transaction detail as its alert reads: never "Dropped"', () => {
    const activity = sending({ status: 'dropped', statusDetail: 'dropped_replace_by_fee', replacedBy: NEW });
    expect(describeActivity(activity, ALICE)).toBe('Fee raised: Sending 2.50 STX');
    const received = { ...activity, stxNet: 2_500_000n, counterparty: ALICE };
    expect(describeActivity(received, BOB)).toBe('Replaced: Receiving 2.50 STX');
    expect(statusLine(activity)).toBe(
      'Replaced — Another transaction with the same nonce and a higher fee took its place: this one moved nothing.',
    );
    const stale = sending({ status: 'dropped', statusDetail: 'dropped_stale_garbage_collect' });
    expect(describeActivity(stale, ALICE)).toBe('Dropped: Sending 2.50 STX');
    expect(statusLine(stale)).toBe('Dropped — It waited too long in the mempool.');
  });
});

describe('a fee bump between two watched addresses, on the tray', () => {
  // Alice speeds up her payment to Bob, both watched: the replaced one is told "Fee raised" and stays on the tray until
  // its replacement is mined. A re-org that takes the replacement's block away makes it not mined any more: the fee
  // bump is on the tray again, beside the replacement's revert, until the replacement is mined again (seed 153).
  const side = (principal: string, txId: string, phase: AlertItem['phase'], change: Partial<Activity> = {}) => {
    const status = phase === 'confirmed' ? 'success' : phase === 'reverted' ? 'success' : phase;
    const activity = sending({
      txId,
      status: status as Activity['status'],
      blockHeight: status === 'success' ? 12 : null,
      ...(principal === BOB ? { stxNet: 2_500_000n, counterparty: ALICE } : {}),
      ...change,
    });
    const item: AlertItem = {
      id: alertId('testnet', principal, txId),
      network: 'testnet',
      principal,
      subject: txId,
      phase,
      activity,
      amount: null,
      at: 0,
      catchUp: false,
    };
    return item;
  };
  const both = (txId: string, phase: AlertItem['phase'], change?: Partial<Activity>, extra: Partial<AlertItem> = {}) =>
    [ALICE, BOB].map((principal) => ({ ...side(principal, txId, phase, change), ...extra }));
  const raised = { statusDetail: 'dropped_replace_by_fee' as const, replacedBy: NEW };
  const feeRaised = (screen: TrayModel['screen']) =>
    [...screen.values()].filter(({ data }) => data.ids.includes(alertId('testnet', ALICE, OLD)));

  it('says "Fee raised" until its replacement is mined, and again while a re-org has taken that back', () => {
    const tray = new TrayModel(text, { watched: () => true });
    tray.batch(both(OLD, 'pending'));
    tray.batch([...both(NEW, 'pending'), ...both(OLD, 'dropped', raised)], 1_000);
    const [told] = feeRaised(tray.screen);
    expect(told).toMatchObject({ title: 'Fee raised: 2.50 STX · Alice → Bob' });
    expect(told!.data.ids).toHaveLength(2);

    tray.batch(both(NEW, 'confirmed'), 2_000);
    expect(feeRaised(tray.screen)).toEqual([]);

    // The replacement's block orphaned: it is not mined any more, and the fee bump is back, quietly (its own state is
    // no news: the revert rings).
    const shown = tray.batch(both(NEW, 'reverted'), 3_000);
    expect(feeRaised(tray.screen).map(({ title }) => title)).toEqual([told!.title]);
    expect(shown.find(({ tag }) => tag === told!.tag)?.renotify).toBe(false);
    expect(shown.some(({ title, renotify }) => title.startsWith('Reverted') && renotify)).toBe(true);

    tray.batch(both(NEW, 'pending', {}, { afterRevert: 'told' }), 4_000);
    expect(feeRaised(tray.screen).map(({ title }) => title)).toEqual([told!.title]);

    tray.batch(both(NEW, 'confirmed', { blockHeight: 13 }), 5_000);
    expect(feeRaised(tray.screen)).toEqual([]);
  });
});
