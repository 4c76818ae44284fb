import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { type TextContext } from '../../src/domain/text/alert-text.ts';
import { itemTag, OVERALL_TAG, summaryTag, withAlertWorded } from '../../src/domain/text/notification-content.ts';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { trayOf, type OnTray } from '../../src/domain/alerts/tray-view.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { tell } from '../../src/domain/alerts/tray-tell.ts';
import { TrayModel, toldAlone } from '../support/told.ts';

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
const limits = { singles: 3, windowMs: 60_000, perBatch: 4 };
const pendings = (...ns: number[]) => ns.map((n) => received(n, 'pending'));

describe('the tray: one alert on one notification, telling its state now', () => {
  it('retells a confirmation inside the summary on screen that told it pending, without a sound', () => {
    const tray = new TrayModel(text, { limits });
    const [onScreen] = tray.batch(pendings(1, 2, 3, 4));
    expect(onScreen).toMatchObject({ tag: `summary:testnet:${ME}`, title: '4 new transactions on Bravo' });
    const [retold, ...more] = tray.batch([received(2, 'confirmed')]);
    expect(more).toEqual([]);
    expect(retold).toMatchObject({ tag: onScreen!.tag, renotify: false, title: '4 new transactions on Bravo' });
    expect(retold!.body).toBe(
      'Receiving 1.00 STX — pending\nReceived 2.00 STX\nReceiving 3.00 STX — pending\nand 1 more',
    );
    expect(retold!.data.ids).toEqual(onScreen!.data.ids);
    expect(retold!.phases?.[received(2, 'confirmed').id]).toBe('confirmed');
    expect(tray.inbox.get(received(2, 'confirmed').id)?.deliveries.at(-1)?.via).toBe('summary');
  });

  it('shows nothing for a retelling once no summary on screen tells its alerts (the inbox tells it)', () => {
    const tray = new TrayModel(text, { limits });
    const [summary] = tray.batch(pendings(1, 2, 3, 4));
    tray.close(summary!.tag);
    expect(tray.batch([received(2, 'confirmed')])).toEqual([]);
    expect(tray.screen.size).toBe(0);
    expect(tray.inbox.get(received(2, 'confirmed').id)?.deliveries.at(-1)?.via).toBe('inbox');
  });

  it('takes a revert told on its own out of the summary, recounted; a summary left empty is closed', () => {
    const tray = new TrayModel(text, { limits });
    tray.batch(pendings(1, 2, 3, 4));
    const shown = tray.batch([received(2, 'reverted')]);
    expect(shown.map((content) => [content.title, content.data.ids.length, content.renotify])).toEqual([
      ['3 new transactions on Bravo', 3, false],
      ['Reverted: Received 2.00 STX', 1, true],
    ]);
    expect(shown[0]!.body).not.toContain('2.00 STX');
    const alone = new TrayModel(text, { limits: { ...limits, singles: 0 } });
    const [summary] = alone.batch(pendings(7));
    expect(summary?.tag).toBe(`summary:testnet:${ME}`);
    alone.batch([received(7, 'dropped')]);
    expect([...alone.screen.keys()]).toEqual(['tx:testnet:0x7']);
  });

  it('grows a summary on screen rather than replacing it with a smaller one', () => {
    const tray = new TrayModel(text, { limits });
    tray.batch(pendings(1, 2, 3, 4));
    const [grown] = tray.batch(pendings(5, 6, 7, 8).map((item) => ({ ...item, at: 1000 })));
    expect(grown?.title).toBe('8 new transactions on Bravo');
    expect(grown?.body.split('\n')[0]).toBe('Receiving 5.00 STX — pending');
    expect(tray.screen.size).toBe(1);
  });
});

describe('a fee bump on the tray', () => {
  const replaced: AlertItem = {
    ...received(1, 'dropped'),
    activity: { ...received(1, 'dropped').activity!, status: 'dropped', replacedBy: '0x2' },
  };

  it("lets the replaced transaction's notification go once the one that took its place is mined, not before", () => {
    const tray = new TrayModel(text, { limits });
    const [shown] = tray.batch([replaced]);
    expect(shown?.data.replacedBy).toBe('testnet:0x2');
    tray.batch([received(2, 'pending')]);
    expect(tray.screen.has(shown!.tag)).toBe(true);
    // Another transaction mined leaves it be.
    tray.batch([received(3, 'confirmed')]);
    expect(tray.screen.has(shown!.tag)).toBe(true);
    tray.batch([received(2, 'confirmed')]);
    expect(tray.screen.has(shown!.tag)).toBe(false);
  });

  it('shows nothing for the replaced one where its replacement is mined already (told at once)', () => {
    const tray = new TrayModel(text, { limits });
    tray.batch([received(2, 'confirmed')]);
    expect(tray.batch([replaced])).toEqual([]);
    // Only pending yet: the fee bump is news.
    const before = new TrayModel(text, { limits });
    before.batch([received(2, 'pending')]);
    expect(before.batch([replaced]).map((content) => content.title)).toEqual([toldAlone(replaced, text).title]);
  });

  it('keeps the replacement named when a tab taking over tells the replaced one again from the inbox', () => {
    const entry = withAlertWorded(undefined, replaced, text, { tag: `tx:${replaced.id}` });
    const again = tell(new Map([[entry.id, entry]]), [entry.id], [], { toast: false, granted: true }, () => null);
    expect(again.show.map((content) => content.data.replacedBy)).toEqual(['testnet:0x2']);
  });
});

describe('a catch-up after a real absence', () => {
  it('reads "While you were away" told on its own, as in a summary; live news and follow-ups do not', () => {
    expect(toldAlone(received(1, 'confirmed', true), text).title).toBe('While you were away: Received 1.00 STX');
    const [summary] = new TrayModel(text, { limits }).batch([
      received(1, 'confirmed', true),
      received(2, 'confirmed', true),
    ]);
    expect(summary?.title).toBe('While you were away: 2 new transactions on Bravo');
    expect(toldAlone(received(1, 'confirmed'), text).title).toBe('Received 1.00 STX');
    expect(toldAlone(received(1, 'reverted', true), text).title).toBe('Reverted: Received 1.00 STX');
  });
});

describe('telling from the inbox (the cold review’s cases)', () => {
  const WALKER = OTHER;
  const named: TextContext = {
    label: (p) => (p === ME ? 'Alice' : 'Walker'),
    nameOf: () => null,
    token: () => undefined,
  };
  const side = (principal: string, phase: AlertItem['phase'], n = 9): AlertItem => ({
    ...received(n, phase),
    id: alertId('testnet', principal, `0x${n}`),
    principal,
  });
  const stored = (
    item: AlertItem,
    tag: string,
    deliveries: InboxEntry['deliveries'] = [],
    undelivered = true,
  ): InboxEntry => ({ ...withAlertWorded(undefined, item, named, { tag }), deliveries, undelivered });
  const asked = (entries: InboxEntry[], ids: string[], screen: OnTray[] = []) =>
    tell(new Map(entries.map((entry) => [entry.id, entry])), ids, screen, { toast: false, granted: true }, () => null);

  it('tells a new side though its other side’s summary was closed, whichever comes first', () => {
    const alice = stored(side(ME, 'confirmed'), OVERALL_TAG, [{ phase: 'pending', via: 'summary', at: 0 }]);
    const walker = stored(side(WALKER, 'confirmed'), OVERALL_TAG);
    for (const ids of [
      [alice.id, walker.id],
      [walker.id, alice.id],
    ]) {
      const told = asked([alice, walker], ids);
      expect(told.via.get(walker.id)).toBe('summary');
      expect(told.show.map((content) => [content.tag, content.data.ids.includes(walker.id)])).toEqual([
        [OVERALL_TAG, true],
      ]);
    }
  });

  it('tells sides of two addresses in the overall summary, an address’s own summary named after it', () => {
    const alice = stored(side(ME, 'confirmed'), summaryTag('testnet', ME), [
      { phase: 'pending', via: 'summary', at: 0 },
    ]);
    const walker = stored(side(WALKER, 'confirmed'), OVERALL_TAG);
    const other = stored(
      side(ME, 'confirmed', 8),
      summaryTag('testnet', ME),
      [{ phase: 'confirmed', via: 'summary', at: 0 }],
      false,
    );
    // On screen: Alice's summary, as it was told with both lines.
    const screen = trayOf(
      [
        { ...alice, deliveries: [] },
        { ...other, deliveries: [] },
      ],
      [],
    );
    const told = asked([alice, walker, other], [alice.id, walker.id], screen);
    const byTag = new Map(told.show.map((content) => [content.tag, content]));
    expect(byTag.get(OVERALL_TAG)?.data.ids.toSorted()).toEqual([alice.id, walker.id].sort());
    expect(screen.map((content) => content.data.ids.length)).toEqual([2]);
    expect(byTag.get(summaryTag('testnet', ME))?.data.ids).toEqual([other.id]);
    expect(byTag.get(summaryTag('testnet', ME))?.title).toBe(other.title);
    expect(told.close).toEqual([]);
  });

  it('in front, toasts an alert on screen whose later state waits for its own tell, never rings it first', () => {
    const x = stored(side(ME, 'pending', 1), itemTag(alertId('testnet', ME, '0x1')));
    const onScreen = trayOf([x], []);
    const later = stored(side(ME, 'confirmed', 1), x.tray!.tag, [{ phase: 'pending', via: 'notification', at: 0 }]);
    const y = stored(side(ME, 'confirmed', 2), itemTag(alertId('testnet', ME, '0x2')));
    const inbox = new Map([later, y].map((entry) => [entry.id, entry]));
    const told = tell(inbox, [y.id], onScreen, { toast: true, granted: true }, () => null);
    expect(told.toasts.flatMap((content) => content.data.ids).sort()).toEqual([later.id, y.id].sort());
    expect(told.show.filter((content) => content.renotify)).toEqual([]);
    expect(told.close).toEqual(onScreen.map(({ tag }) => tag));
  });

  it('in the background, rings an alert on screen whose later state is stored once: when the tray is redrawn', () => {
    const x = stored(side(ME, 'pending', 1), itemTag(alertId('testnet', ME, '0x1')));
    const onScreen = trayOf([x], []);
    const later = stored(side(ME, 'confirmed', 1), x.tray!.tag, [{ phase: 'pending', via: 'notification', at: 0 }]);
    const y = stored(side(ME, 'confirmed', 2), itemTag(alertId('testnet', ME, '0x2')));
    const told = asked([later, y], [y.id], onScreen);
    expect(told.show.map((content) => [content.data.ids, content.renotify])).toEqual([
      [[later.id], true],
      [[y.id], true],
    ]);
    // Its own tell finds its state on screen: nothing shown again, told by its notification.
    const screen = told.show.map(({ tag, title, body, data }) => ({ tag, title, body, data }));
    const own = asked([later, y], [later.id], screen);
    expect(own.show).toEqual([]);
    expect(own.via.get(later.id)).toBe('notification');
  });
});
