import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { type TextContext } from '../../src/domain/text/alert-text.ts';
import { noticeContent } from '../../src/domain/text/notification-content.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { leaveTray, placeOnTray } from '../../src/domain/alerts/tray.ts';
import { withAlert } from '../../src/domain/alerts/inbox.ts';
import { storedContents } from '../../src/domain/text/notification-recovery.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const text: TextContext = { label: () => 'Bravo', nameOf: () => null, token: () => undefined };

const received = (n: number, phase: AlertItem['phase'], catchUp = false): AlertItem => {
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
  const id = alertId('testnet', ME, `0x${n}`);
  return { id, network: 'testnet', principal: ME, subject: `0x${n}`, phase, activity, amount: null, at: 0, catchUp };
};
const summary = (items: AlertItem[], away = false) =>
  noticeContent({ kind: 'summary', network: 'testnet', principal: ME, items, away }, text);
const retell = (items: AlertItem[]) => noticeContent({ kind: 'retell', items }, text);
const single = (item: AlertItem) => noticeContent({ kind: 'single', item, update: true }, text);

describe('the tray: one alert on one notification, telling its state now', () => {
  const onScreen = summary([1, 2, 3, 4].map((n) => received(n, 'pending')));

  it('retells a confirmation inside the summary on screen that told it pending, without a sound', () => {
    const change = placeOnTray([onScreen], retell([received(2, 'confirmed')]));
    expect(change.show).toBeNull();
    expect(change.close).toEqual([]);
    expect(change.quiet).toHaveLength(1);
    const [retold] = change.quiet;
    expect(retold).toMatchObject({ tag: onScreen.tag, renotify: false, title: '4 new transactions on Bravo' });
    expect(retold!.body).toBe(
      'Receiving 1.00 STX — pending\nReceived 2.00 STX\nReceiving 3.00 STX — pending\nand 1 more',
    );
    expect(retold!.data.ids).toEqual(onScreen.data.ids);
    expect(retold!.phases?.[received(2, 'confirmed').id]).toBe('confirmed');
  });

  it('shows nothing for a retelling once no summary on screen tells its alerts (the inbox tells it)', () => {
    expect(placeOnTray([], retell([received(2, 'confirmed')]))).toEqual({ show: null, quiet: [], close: [] });
    expect(placeOnTray([summary([received(9, 'pending')])], retell([received(2, 'confirmed')])).quiet).toEqual([]);
  });

  it('takes a revert told on its own out of the summary, recounted; a summary left empty is closed', () => {
    const reverted = single(received(2, 'reverted'));
    const change = placeOnTray([onScreen], reverted);
    expect(change.show).toBe(reverted);
    expect(change.quiet.map((content) => [content.title, content.data.ids.length, content.renotify])).toEqual([
      ['3 new transactions on Bravo', 3, false],
    ]);
    expect(change.quiet[0]!.body).not.toContain('2.00 STX');
    const alone = summary([received(7, 'pending')]);
    expect(placeOnTray([alone], single(received(7, 'dropped'))).close).toEqual([alone.tag]);
    // Told by a toast instead: the same.
    expect(leaveTray([alone], [received(7, 'dropped').id])).toEqual({ show: null, quiet: [], close: [alone.tag] });
  });

  it('grows a summary on screen rather than replacing it with a smaller one', () => {
    const change = placeOnTray([onScreen], summary([received(5, 'pending')]));
    expect(change.show?.title).toBe('5 new transactions on Bravo');
  });
});

describe('a fee bump on the tray', () => {
  it("lets the replaced transaction's notification go once the one that took its place is mined, not before", () => {
    const replaced: AlertItem = {
      ...received(1, 'dropped'),
      activity: { ...received(1, 'dropped').activity!, status: 'dropped', replacedBy: '0x2' },
    };
    const shown = single(replaced);
    expect(shown.data.replacedBy).toBe('testnet:0x2');
    const onTray = [{ tag: shown.tag, title: shown.title, body: shown.body, data: shown.data }];
    expect(placeOnTray(onTray, single(received(2, 'pending'))).close).toEqual([]);
    expect(placeOnTray(onTray, single(received(2, 'confirmed'))).close).toEqual([shown.tag]);
    // Another transaction mined leaves it be.
    expect(placeOnTray(onTray, single(received(3, 'confirmed'))).close).toEqual([]);
  });

  it('shows nothing for the replaced one where its replacement is on the tray mined already (told at once)', () => {
    const replaced: AlertItem = {
      ...received(1, 'dropped'),
      activity: { ...received(1, 'dropped').activity!, status: 'dropped', replacedBy: '0x2' },
    };
    const mined = single(received(2, 'confirmed'));
    const onTray = [{ tag: mined.tag, title: mined.title, body: mined.body, data: mined.data }];
    expect(placeOnTray(onTray, single(replaced))).toEqual({ show: null, quiet: [], close: [] });
    // Only pending yet: the fee bump is news.
    const pending = single(received(2, 'pending'));
    const before = [{ tag: pending.tag, title: pending.title, body: pending.body, data: pending.data }];
    expect(placeOnTray(before, single(replaced)).show?.title).toBe(single(replaced).title);
  });

  it('keeps the replacement named when a tab taking over shows the replaced one again from the inbox', () => {
    const replaced: AlertItem = {
      ...received(1, 'dropped'),
      activity: { ...received(1, 'dropped').activity!, status: 'dropped', replacedBy: '0x2' },
    };
    const shown = single(replaced);
    const entry = withAlert(undefined, replaced, { title: shown.title, body: shown.body, path: shown.data.path });
    const [again] = storedContents([entry], () => null);
    expect(again?.data.replacedBy).toBe('testnet:0x2');
  });
});

describe('a catch-up after a real absence', () => {
  it('reads "While you were away" told on its own, as in a summary; live news and follow-ups do not', () => {
    expect(single(received(1, 'confirmed', true)).title).toBe('While you were away: Received 1.00 STX');
    expect(summary([received(1, 'confirmed', true), received(2, 'confirmed', true)], true).title).toBe(
      'While you were away: 2 new transactions on Bravo',
    );
    expect(single(received(1, 'confirmed')).title).toBe('Received 1.00 STX');
    expect(single(received(1, 'reverted', true)).title).toBe('Reverted: Received 1.00 STX');
  });
});
