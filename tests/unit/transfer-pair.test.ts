import { describe, expect, it } from 'vitest';
import {
  alertId,
  emptyPlanState,
  noticeItems,
  planNotices,
  type AlertItem,
} from '../../src/domain/alerts/alert-plan.ts';
import { type TextContext } from '../../src/domain/text/alert-text.ts';
import { noticeContent, type NotificationContent } from '../../src/domain/text/notification-content.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { addToBurst } from '../../src/domain/alerts/toast-burst.ts';
import { viewBurst } from '../../src/domain/alerts/toast-view.ts';
import { placeOnTray, type OnTray } from '../../src/domain/alerts/tray.ts';

const ALICE = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const WALKER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const STRANGER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const labels = new Map([
  [ALICE, 'Alice'],
  [WALKER, 'Walker'],
]);
const text: TextContext = { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined };

/** One 4.30 STX transfer from Alice to `to`, as `principal` sees it. */
const side = (principal: string, phase: AlertItem['phase'] = 'pending', to = WALKER, tx = '0xaa'): AlertItem => {
  const activity: Activity = {
    txId: tx,
    status: phase === 'pending' ? 'pending' : 'success',
    kind: 'token_transfer',
    counterparty: principal === ALICE ? to : ALICE,
    stxNet: principal === ALICE ? -4_300_180n : 4_300_000n,
    fee: 180n,
    memo: 'rent',
    contractCall: null,
    blockHeight: phase === 'pending' ? null : 12,
    time: 1_700_000_000,
    sender: ALICE,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: to, amount: 4_300_000n },
    ],
  };
  const id = alertId('testnet', principal, tx);
  return { id, network: 'testnet', principal, subject: tx, phase, activity, amount: null, at: 0, catchUp: false };
};
const told = (item: AlertItem) => noticeContent({ kind: 'single', item, update: false }, text);

/** Shows contents one after the other on a tray (tag → notification), as the service worker does. */
function tray(...contents: NotificationContent[]): Map<string, NotificationContent> {
  const screen = new Map<string, NotificationContent>();
  for (const content of contents) {
    const change = placeOnTray([...screen.values()] as OnTray[], content);
    if (change.show) screen.set(change.show.tag, change.show);
    for (const quiet of change.quiet) screen.set(quiet.tag, quiet);
    for (const tag of change.close) screen.delete(tag);
  }
  return screen;
}

describe('a transfer between two watched addresses', () => {
  it('is one notification whichever side comes first, carrying both alerts, the second side silent', () => {
    for (const order of [
      [side(ALICE), side(WALKER)],
      [side(WALKER), side(ALICE)],
    ]) {
      const screen = tray(...order.map(told));
      expect(screen.size).toBe(1);
      const [pair] = screen.values();
      expect(pair!.title).toBe('Alice → Walker 4.30 STX — pending');
      expect(pair!.body).toBe('“rent”\nFee 0.00018 STX, paid by Alice');
      expect([...pair!.data.ids].sort()).toEqual([side(ALICE).id, side(WALKER).id].sort());
      expect(pair!.renotify).toBe(false);
    }
  });

  it('is one notification when the second side comes in a later batch: it joins the first side', () => {
    const watched = () => true;
    const first = planNotices([side(ALICE)], emptyPlanState(), 1_000, () => null, undefined, watched);
    expect(first.notices).toEqual([{ kind: 'single', item: side(ALICE), update: false }]);
    // Walker's side comes next, though Walker was told three transactions of his own this minute meanwhile.
    const busy = [1, 2, 3].map((n) => side(WALKER, 'confirmed', STRANGER, `0x0${n}`));
    const state = planNotices(busy, first.state, 1_500, () => null).state;
    const shown = (id: string) => (id === side(ALICE).id ? 'single' : null);
    const second = planNotices([side(WALKER)], state, 2_000, shown, undefined, watched);
    expect(second.notices).toEqual([{ kind: 'single', item: side(WALKER), update: false }]);
    const screen = tray(...[...first.notices, ...second.notices].map((notice) => noticeContent(notice, text)));
    expect([...screen.values()].map((content) => content.title)).toEqual(['Alice → Walker 4.30 STX — pending']);
  });

  it('is one notification when both addresses are busy and their sides come in two batches', () => {
    // The walkthrough's case: each side folded into its own address's summary, two notifications for one transfer.
    const busy = (principal: string, from: number) =>
      [0, 1, 2].map((n) => side(principal, 'confirmed', principal === ALICE ? STRANGER : WALKER, `0x${from + n}`));
    const watched = () => true;
    let state = planNotices([...busy(ALICE, 10), ...busy(WALKER, 20)], emptyPlanState(), 0, () => null).state;
    const first = planNotices([side(ALICE)], state, 1_000, () => null, undefined, watched);
    state = first.state;
    // Told in the overall summary, the first side draws the second one there.
    const shown = (id: string) => (id === side(ALICE).id ? 'summary' : null);
    const second = planNotices([side(WALKER)], state, 2_000, shown, undefined, watched);
    const screen = tray(...[...first.notices, ...second.notices].map((notice) => noticeContent(notice, text)));
    expect([...screen.values()].map((content) => [content.tag, content.data.ids.length])).toEqual([['summary:all', 2]]);
    // Without the other address watched, a busy address's side folds into its own summary as ever.
    expect(planNotices([side(WALKER)], state, 2_000, () => null).notices[0]!.kind).toBe('summary');
  });

  it('folds into a batch’s overall summary with the other alerts when the batch holds too many', () => {
    // Four other addresses, one alert each: with the pair, more than a batch tells one by one.
    const others = [1, 2, 3, 4].map((n) => {
      const principal = `ST${n}OTHER`;
      return {
        ...side(WALKER, 'confirmed', STRANGER, `0x4${n}`),
        principal,
        id: alertId('testnet', principal, `0x4${n}`),
      };
    });
    const watched = () => true;
    const batch = [...others, side(ALICE), side(WALKER)];
    const { notices } = planNotices(batch, emptyPlanState(), 0, () => null, undefined, watched);
    expect(notices.map((notice) => [notice.kind, noticeItems(notice).length])).toEqual([['overall', 6]]);
  });

  it('is told as one when mined too, and a revert of one side leaves the other side in its own words', () => {
    const screen = tray(told(side(ALICE)), told(side(WALKER)), told(side(ALICE, 'confirmed')));
    expect([...screen.values()].map((content) => content.title)).toEqual(['Alice → Walker 4.30 STX']);
    expect([...screen.values()][0]!.renotify).toBe(true);
    const after = tray(
      told(side(ALICE, 'confirmed')),
      told(side(WALKER, 'confirmed')),
      noticeContent({ kind: 'single', item: side(WALKER, 'reverted'), update: true }, text),
    );
    expect([...after.values()].map((content) => [content.title, content.data.ids.length])).toEqual([
      ['Sent 4.30 STX · fee 0.00018 STX', 1],
      ['Reverted: Received 4.30 STX', 1],
    ]);
  });

  it('is not paired with an address that is not watched', () => {
    expect(told(side(ALICE, 'pending', STRANGER)).data.pair).toBeUndefined();
  });

  it('counts as one alert in a toast burst', () => {
    const other = told(side(ALICE, 'pending', WALKER, '0xbb'));
    const burst = addToBurst(addToBurst(addToBurst(null, told(side(ALICE))), told(side(WALKER))), other);
    expect(viewBurst(burst).title).toBe('2 new alerts');
    expect(viewBurst(addToBurst(addToBurst(null, told(side(WALKER))), told(side(ALICE)))).title).toBe(
      'Alice → Walker 4.30 STX — pending',
    );
  });
});
