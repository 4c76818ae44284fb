import { shortPrincipal } from '../../src/domain/text/activity-text.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isNews,
  LEDGER_LIMIT,
  newLedger,
  pendingBeforeWatch,
  record,
  type AlertPhase,
} from '../../src/domain/alerts/alert-ledger.ts';
import {
  alertId,
  DEFAULT_LIMITS,
  emptyPlanState,
  placeBatch,
  type AlertItem,
} from '../../src/domain/alerts/alert-plan.ts';
import { DEFAULT_RULES, parseMinimum } from '../../src/domain/alerts/alert-rules.ts';
import { judge } from '../../src/domain/alerts/alert-judge.ts';
import { alertTitle, bodyUnderSubject, type TextContext } from '../../src/domain/text/alert-text.ts';
import { isSummaryTag, itemTag, OVERALL_TAG, summaryTag } from '../../src/domain/text/notification-content.ts';
import { type Placement } from '../../src/domain/alerts/tray-view.ts';
import { tell } from '../../src/domain/alerts/tray-tell.ts';
import { TrayModel, toldAlone } from '../support/told.ts';
import { howShown, type DeliveryVia, type InboxEntry } from '../../src/domain/alerts/inbox.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';

const ME = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';

const transfer = (change: Partial<Activity> = {}): Activity => ({
  txId: '0x01',
  status: 'success',
  kind: 'token_transfer',
  counterparty: OTHER,
  stxNet: 1_250_000_000n,
  fee: 180n,
  memo: 'rent',
  contractCall: null,
  blockHeight: 10,
  time: 1_700_000_000,
  ...change,
});
const context = { principal: ME, knownAssets: new Set<string>(), alertedBefore: false };
const text: TextContext = {
  label: (principal) => (principal.startsWith(ME) ? 'Treasury' : ''),
  nameOf: () => null,
  token: () => undefined,
};

describe('alert rules', () => {
  it('tells incoming and outgoing transfers by default, and honours each switch', () => {
    expect(judge(transfer(), 'confirmed', DEFAULT_RULES, context).alert).toBe(true);
    expect(judge(transfer(), 'confirmed', { ...DEFAULT_RULES, muted: true }, context)).toEqual({
      alert: false,
      reason: 'muted',
    });
    expect(judge(transfer(), 'confirmed', { ...DEFAULT_RULES, incoming: false }, context)).toEqual({
      alert: false,
      reason: 'direction',
    });
    expect(judge(transfer(), 'pending', { ...DEFAULT_RULES, pending: false }, context)).toEqual({
      alert: false,
      reason: 'pending-off',
    });
    expect(judge(transfer(), 'confirmed', { ...DEFAULT_RULES, stx: false }, context)).toEqual({
      alert: false,
      reason: 'asset-kind',
    });
  });

  it('guards against dust coming in, never against what goes out', () => {
    const rules = { ...DEFAULT_RULES, minimums: { STX: 1_000_000n } };
    expect(judge(transfer({ stxNet: 5n }), 'confirmed', rules, context)).toEqual({ alert: false, reason: 'dust' });
    expect(judge(transfer({ stxNet: -185n }), 'confirmed', rules, context).alert).toBe(true);
  });

  it("guards against dust from a lookalike of the PoX contract: only the chain's own is a stacking call", () => {
    const rules = { ...DEFAULT_RULES, minimums: { STX: 1_000_000n } };
    const dust = (contractId: string) =>
      transfer({ kind: 'contract_call', stxNet: 5n, contractCall: { contractId, functionName: 'delegate-airdrop' } });
    expect(judge(dust(`${OTHER}.pox-4`), 'confirmed', rules, context)).toEqual({ alert: false, reason: 'dust' });
    expect(judge(dust('SP000000000000000000002Q6VF78.pox-4'), 'confirmed', rules, context).alert).toBe(true);
  });

  it('stays silent about tokens the address never held and did not ask for', () => {
    const airdrop = transfer({
      kind: 'contract_call',
      stxNet: 0n,
      contractCall: { contractId: `${OTHER}.spam`, functionName: 'airdrop' },
      assets: [{ type: 'ft', assetIdentifier: `${OTHER}.spam::spam`, net: 100n }],
    });
    expect(judge(airdrop, 'confirmed', DEFAULT_RULES, context)).toEqual({ alert: false, reason: 'unsolicited' });
    expect(
      judge(airdrop, 'confirmed', DEFAULT_RULES, { ...context, knownAssets: new Set([`${OTHER}.spam::spam`]) }).alert,
    ).toBe(true);
  });

  it('tells a revert or a drop only of what was told', () => {
    for (const phase of ['reverted', 'dropped'] as const) {
      expect(judge(transfer(), phase, DEFAULT_RULES, context).alert).toBe(false);
      expect(judge(transfer(), phase, DEFAULT_RULES, { ...context, alertedBefore: true }).alert).toBe(true);
    }
  });

  it('reads typed minimums and says what is wrong', () => {
    expect(parseMinimum('0.5')).toEqual({ ok: true, value: 500_000n });
    expect(parseMinimum('1,000')).toEqual({ ok: true, value: 1_000_000_000n });
    expect(parseMinimum('abc').ok).toBe(false);
    expect(parseMinimum('0.0000001')).toEqual({
      ok: false,
      error: '“0.0000001” has 7 decimal places; STX has at most 6.',
    });
  });

  it('reads commas only as thousands, refuses a decimal comma and a threshold above all there will ever be', () => {
    expect(parseMinimum('1,000,000.25')).toEqual({ ok: true, value: 1_000_000_250_000n });
    expect(parseMinimum(' 2 500 ')).toEqual({ ok: true, value: 2_500_000_000n });
    // Read as 15 it silenced what the user meant to see.
    expect(parseMinimum('1,5')).toEqual({
      ok: false,
      error: '“1,5”: write decimals with a point, like 1.5. A comma only groups thousands (1,000).',
    });
    expect(parseMinimum('1,00,000').ok).toBe(false);
    expect(parseMinimum('1818000000')).toEqual({ ok: true, value: 1_818_000_000_000_000n });
    expect(parseMinimum('999999999999')).toEqual({
      ok: false,
      error:
        '999,999,999,999.00 STX is more than there will ever be (1,818,000,000 STX): it would silence every alert.',
    });
    const sbtc = { symbol: 'sBTC', decimals: 8, mostEver: 21_000_000n };
    expect(parseMinimum('0.00000001', sbtc)).toEqual({ ok: true, value: 1n });
    expect(parseMinimum('21000001', sbtc).ok).toBe(false);
  });
});

describe('the alert ledger', () => {
  const phases: AlertPhase[] = ['pending', 'confirmed', 'failed', 'dropped', 'reverted'];
  it('takes a pending transaction received before the oldest one a cut-short first sync read as history', () => {
    const ledger = { ...newLedger(ME, 'testnet', 0), pendingBefore: 1_000 };
    expect(pendingBeforeWatch(ledger, '0xold', 'pending', 999)).toBe(true);
    expect(pendingBeforeWatch(ledger, '0xsame', 'pending', 1_000)).toBe(true);
    expect(pendingBeforeWatch(ledger, '0xnew', 'pending', 1_001)).toBe(false);
    // Mined, it is news like anything mined above the floor; seen before, the ledger decides.
    expect(pendingBeforeWatch(ledger, '0xold', 'confirmed', 999)).toBe(false);
    expect(pendingBeforeWatch(record(ledger, '0xold', 'pending', null, true), '0xold', 'pending', 999)).toBe(false);
    // A first sync that read everything pending sets no boundary.
    expect(pendingBeforeWatch(newLedger(ME, 'testnet', 0), '0xold', 'pending', 1)).toBe(false);
  });

  it('never lets a transaction state through twice, whatever order and repeats the node sends (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.constantFrom(...phases)), { maxLength: 200 }),
        (events) => {
          let ledger = newLedger(ME, 'testnet', 0);
          const told = new Map<string, AlertPhase[]>();
          for (const [n, phase] of events) {
            const subject = `0x${n}`;
            if (!isNews(ledger, subject, phase, n + 1)) continue;
            ledger = record(ledger, subject, phase, n + 1, true);
            told.set(subject, [...(told.get(subject) ?? []), phase]);
          }
          for (const sequence of told.values()) {
            // Consecutive states always differ, and a mined state is told again only after a revert.
            sequence.forEach((phase, index) => expect(phase).not.toBe(sequence[index - 1]));
            const mined = sequence.filter((phase) => phase === 'confirmed' || phase === 'failed').length;
            expect(mined).toBeLessThanOrEqual(sequence.filter((phase) => phase === 'reverted').length + 1);
            // Only a transaction told pending can be told dropped.
            sequence.forEach((phase, index) => phase === 'dropped' && expect(sequence[index - 1]).toBe('pending'));
          }
        },
      ),
    );
  });

  it('stays bounded, and what it forgot is below its floor: old, never news', () => {
    let ledger = newLedger(ME, 'testnet', 0);
    for (let n = 0; n < LEDGER_LIMIT + 50; n++) ledger = record(ledger, `0x${n}`, 'confirmed', n, true);
    expect(Object.keys(ledger.seen)).toHaveLength(LEDGER_LIMIT);
    expect(isNews(ledger, '0x3', 'confirmed', 3)).toBe(false);
    expect(isNews(ledger, '0xnew', 'confirmed', LEDGER_LIMIT + 60)).toBe(true);
  });

  it('forgets the lowest block first, pending after every mined one, then the oldest recorded (property)', () => {
    // The model: every subject recorded with its height and when, the lowest (height, then order) dropped while over.
    const step = fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.option(fc.integer({ min: 0, max: 90 }), { freq: 5 }));
    fc.assert(
      fc.property(fc.array(step, { minLength: LEDGER_LIMIT - 20, maxLength: LEDGER_LIMIT + 120 }), (steps) => {
        let ledger = newLedger(ME, 'testnet', 0);
        const model = new Map<string, { height: number | null; order: number }>();
        let floor = -1;
        steps.forEach(([n, height], order) => {
          ledger = record(ledger, `0x${n}`, height === null ? 'pending' : 'confirmed', height, true);
          model.set(`0x${n}`, { height, order });
          while (model.size > LEDGER_LIMIT) {
            const [key, entry] = [...model].reduce((a, b) =>
              (a[1].height ?? Infinity) !== (b[1].height ?? Infinity)
                ? (a[1].height ?? Infinity) < (b[1].height ?? Infinity)
                  ? a
                  : b
                : a[1].order < b[1].order
                  ? a
                  : b,
            );
            if (entry.height !== null) floor = Math.max(floor, entry.height);
            model.delete(key);
          }
        });
        expect(Object.keys(ledger.seen).sort()).toEqual([...model.keys()].sort());
        expect(ledger.floor).toBe(floor);
      }),
      // Shrinking hundreds of records takes minutes: a failure says its seed and its whole sequence instead.
      { numRuns: 60, endOnFailure: true },
    );
  });
});

const item = (n: number, principal = ME, change: Partial<AlertItem> = {}): AlertItem => ({
  id: alertId('testnet', principal, `0x${n}`),
  network: 'testnet',
  principal,
  subject: `0x${n}`,
  phase: 'confirmed',
  activity: transfer({ txId: `0x${n}` }),
  amount: null,
  at: 0,
  catchUp: false,
  ...change,
});

describe('coalescing', () => {
  it('puts every alert in exactly one notice, a quiet one in none, and bursts into summaries (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.boolean(), fc.boolean()), { maxLength: 12 }), {
          maxLength: 8,
        }),
        (batches) => {
          let state = emptyPlanState();
          let n = 0;
          const shown = new Map<string, 'single' | 'summary'>();
          for (const [index, batch] of batches.entries()) {
            const items = batch.map(([who, catchUp, quiet]) =>
              item(n++, `${ME}${who}`, { catchUp, ...(quiet ? { quiet } : {}) }),
            );
            const plan = placeBatch(items, state, index * 1000, (id) => shown.get(id) ?? null);
            state = plan.state;
            const told = [...plan.placed.keys()];
            expect(told.sort()).toEqual(
              items
                .filter((told) => !told.quiet)
                .map((told) => told.id)
                .sort(),
            );
            expect(new Set([...plan.placed.values()].map(({ tag }) => tag)).size).toBeLessThanOrEqual(4 + 1);
            for (const [id, { tag }] of plan.placed) shown.set(id, isSummaryTag(tag) ? 'summary' : 'single');
            const singles = [...shown.entries()].filter(([, how]) => how === 'single').map(([id]) => id.split(':')[1]);
            for (const who of new Set(singles))
              expect(singles.filter((s) => s === who).length).toBeLessThanOrEqual(3 * batches.length);
          }
        },
      ),
    );
  });

  it('turns a burst into "7 new transactions on Treasury", and a summary still on screen grows', () => {
    const items = Array.from({ length: 7 }, (_, n) => item(n));
    const { placed } = placeBatch(items, emptyPlanState(), 0, () => null);
    expect(new Set([...placed.values()].map(({ tag }) => tag))).toEqual(new Set([summaryTag('testnet', ME)]));
    const tray = new TrayModel(text);
    expect(tray.batch(items).map((content) => content.title)).toEqual(['7 new transactions on Treasury']);
    expect(tray.batch([item(8), item(9), item(10), item(11)]).map((content) => content.title)).toEqual([
      '11 new transactions on Treasury',
    ]);
  });

  it('counts "new alerts", not transactions, once a summary holds a staking alert', () => {
    const claimable = item(0, ME, {
      id: alertId('testnet', ME, 'claimable:0'),
      subject: 'claimable:0',
      phase: 'locked',
      activity: null,
      amount: 120_000n,
    });
    const items = [claimable, ...Array.from({ length: 4 }, (_, n) => item(n + 1))];
    const tray = new TrayModel(text);
    expect(tray.batch(items).map((content) => content.title)).toEqual(['5 new alerts on Treasury']);
    expect(tray.batch([item(8), item(9), item(10), item(11)]).map((content) => content.title)).toEqual([
      '9 new alerts on Treasury',
    ]);
    const transactions = new TrayModel(text).batch([item(8), item(9), item(10), item(11)]);
    expect(transactions.map((content) => content.title)).toEqual(['4 new transactions on Treasury']);
  });

  it('replaces a told pending transaction by its confirmation, and retells one told in a summary, without a sound', () => {
    const pending = item(1, ME, { phase: 'pending' });
    expect(placeBatch([pending], emptyPlanState(), 0, () => 'single').placed).toEqual(
      new Map([[pending.id, { tag: itemTag(pending.id) }]]),
    );
    // Told in a summary, it is placed nowhere new: it keeps its line there.
    const inSummary = (id: string) => (id === item(1).id ? 'summary' : null);
    expect(placeBatch([item(1)], emptyPlanState(), 0, inSummary).placed).toEqual(new Map());
    const tray = new TrayModel(text);
    tray.batch([1, 2, 3, 4].map((n) => item(n, ME, { phase: 'pending' })));
    expect(tray.batch([item(1)])).toMatchObject([{ renotify: false, phases: { [item(1).id]: 'confirmed' } }]);
    // A retelling is no news: four new ones with it still come one by one, not folded into a summary.
    const told = (id: string) => (id === item(1).id ? 'summary' : null);
    const news = [item(2, `${ME}1`), item(3, `${ME}2`), item(4, `${ME}3`), item(5, `${ME}4`)];
    const { placed } = placeBatch([item(1), ...news], emptyPlanState(), 0, told);
    expect(placed).toEqual(new Map(news.map(({ id }) => [id, { tag: itemTag(id) }])));
  });

  it('tells both sides of a transaction of two watched addresses in one notification, never one in a summary', () => {
    const BOB = OTHER;
    const sent = item(7, ME, { activity: transfer({ txId: '0x7', counterparty: BOB, stxNet: -1_250_000_180n }) });
    const received = item(7, BOB, { activity: transfer({ txId: '0x7', counterparty: ME }) });
    // Both addresses quiet: each side on its own, under one tag (one notification on screen).
    const { placed: quiet } = placeBatch([sent, received], emptyPlanState(), 10, () => null);
    expect(quiet).toEqual(
      new Map([
        [sent.id, { tag: itemTag(sent.id) }],
        [received.id, { tag: itemTag(received.id) }],
      ]),
    );
    const tray = new TrayModel({ ...text, watched: () => true });
    expect(tray.batch([sent, received]).map((content) => content.data.ids)).toEqual([[sent.id, received.id]]);
    // Bob was told three transactions this minute: a fourth of his alone would fold into his summary. The pair goes
    // into the overall summary instead, both sides together, where the one not in this batch would join it.
    const busy = { singlesAt: new Map([[`testnet:${BOB}`, [0, 1, 2]]]) };
    expect(placeBatch([sent, received], busy, 10, () => null).placed).toEqual(
      new Map([
        [sent.id, { tag: OVERALL_TAG }],
        [received.id, { tag: OVERALL_TAG }],
      ]),
    );
    // Alone, his next one folds as before.
    expect(placeBatch([item(8, BOB)], busy, 10, () => null).placed).toEqual(
      new Map([[item(8, BOB).id, { tag: summaryTag('testnet', BOB) }]]),
    );
    // Two addresses' alerts of one subject that is no transfer between them (each address's own unlock at the same
    // burn height) are no pair: his folds as before.
    const unlock = (principal: string) =>
      item(9, principal, { subject: 'unlock:145', id: alertId('testnet', principal, 'unlock:145'), activity: null });
    expect(placeBatch([unlock(ME), unlock(BOB)], busy, 10, () => null).placed).toEqual(
      new Map([
        [unlock(ME).id, { tag: itemTag(unlock(ME).id) }],
        [unlock(BOB).id, { tag: summaryTag('testnet', BOB) }],
      ]),
    );
  });

  it('keeps a quiet state in the inbox only, unless an earlier state of it was shown: never a stale "pending"', () => {
    const quiet = item(1, ME, { quiet: true });
    expect(placeBatch([quiet], emptyPlanState(), 0, () => null).placed).toEqual(new Map());
    expect(placeBatch([quiet], emptyPlanState(), 0, () => 'single').placed).toEqual(
      new Map([[quiet.id, { tag: itemTag(quiet.id) }]]),
    );
    // Told in a summary: it keeps its line there (placed nowhere new), which changes to its new state.
    expect(placeBatch([quiet], emptyPlanState(), 0, (id) => (id === quiet.id ? 'summary' : null)).placed).toEqual(
      new Map(),
    );
    const summarized = new TrayModel(text);
    summarized.batch([1, 2, 3, 4].map((n) => item(n, ME, { phase: 'pending' })));
    expect(summarized.batch([quiet])).toMatchObject([{ renotify: false, phases: { [quiet.id]: 'confirmed' } }]);
    // A drop of a quiet pending state is told: nothing was shown of it, and the act it was did not happen.
    const dropped = item(1, ME, { phase: 'dropped' });
    expect(placeBatch([dropped], emptyPlanState(), 0, () => null).placed).toEqual(
      new Map([[dropped.id, { tag: itemTag(dropped.id) }]]),
    );
  });

  it('goes by how an alert was last shown: a revert told on its own is replaced when the transaction is mined again', () => {
    const told = (...vias: DeliveryVia[]) =>
      ({ deliveries: vias.map((via, at) => ({ phase: 'confirmed', via, at })) }) as unknown as InboxEntry;
    expect(howShown(told())).toBe(null);
    expect(howShown(told('inbox'))).toBe(null);
    expect(howShown(told('summary', 'inbox'))).toBe('summary');
    expect(howShown(told('summary', 'notification'))).toBe('single');
    expect(howShown(told('notification', 'summary'))).toBe('summary');
    expect(howShown(told('toast'))).toBe('single');
  });

  it('tells alerts left untold by a closed tab where each was placed: each in one notification at most', () => {
    const entry = (n: number, tray: Placement, phase: AlertPhase = 'confirmed', told?: DeliveryVia): InboxEntry => ({
      id: `testnet:${ME}:0x${n}`,
      network: 'testnet',
      principal: ME,
      txId: `0x${n}`,
      phase,
      title: `Alert ${n}`,
      body: 'Treasury',
      path: `/address/${ME}#tx-0x${n}`,
      firstAt: n,
      at: n,
      read: false,
      deliveries: told ? [{ phase: 'pending', via: told, at: 0 }] : [],
      undelivered: true,
      tray,
    });
    const summary = { tag: summaryTag('testnet', ME) };
    const stored = [
      entry(1, { tag: itemTag(`testnet:${ME}:0x1`) }, 'confirmed', 'notification'),
      entry(2, summary, 'confirmed', 'summary'),
      entry(3, { tag: itemTag(`testnet:${ME}:0x3`) }, 'reverted', 'summary'),
      entry(4, { tag: itemTag(`testnet:${ME}:0x4`) }),
      entry(5, summary),
    ];
    const inbox = new Map(stored.map((told) => [told.id, told]));
    // The tray shows the summary that told 2 and 3 pending; 1's notification was closed by the user.
    const screen = [
      {
        tag: summary.tag,
        title: '2 new transactions on Treasury',
        body: '',
        data: {
          ids: [`testnet:${ME}:0x2`, `testnet:${ME}:0x3`],
          path: '/',
          summary: { subject: 'Treasury', away: false },
        },
      },
    ];
    const told = tell(inbox, [...inbox.keys()], screen, { toast: false, granted: true }, () => null);
    const shown = told.show.map((content) => [content.title, content.data.ids.length, content.renotify]);
    expect(shown.sort()).toEqual([
      ['2 new transactions on Treasury', 2, true],
      ['Alert 1', 1, true],
      ['Alert 3', 1, true],
      ['Alert 4', 1, true],
    ]);
    expect(told.show.find((content) => content.data.summary)?.body).toBe('Alert 5\nAlert 2');
    expect(told.close).toEqual([]);
    expect([...told.via]).toEqual([
      [`testnet:${ME}:0x1`, 'notification'],
      [`testnet:${ME}:0x2`, 'summary'],
      [`testnet:${ME}:0x3`, 'notification'],
      [`testnet:${ME}:0x4`, 'notification'],
      [`testnet:${ME}:0x5`, 'summary'],
    ]);
  });
});

describe('what a notification says', () => {
  it('says why a failed call was refused, as the address page does: a post-condition, or the contract', () => {
    const failedCall = (statusDetail: string) =>
      item(1, ME, {
        phase: 'failed',
        activity: transfer({
          status: 'failed',
          statusDetail,
          kind: 'contract_call',
          stxNet: -300n,
          fee: 300n,
          contractCall: { contractId: `${OTHER}.stacks-owls`, functionName: 'transfer' },
        }),
      });
    const bodyOf = (statusDetail: string) => toldAlone(failedCall(statusDetail), text).body;
    expect(bodyOf('abort_by_post_condition').split('\n').at(-1)).toBe(
      'Stopped by a post-condition: nothing moved, only the fee was paid.',
    );
    expect(bodyOf('abort_by_response').split('\n').at(-1)).toBe(
      'Refused by the contract: nothing moved, only the fee was paid.',
    );
  });

  it('names its address as the watch list and the inbox do: its label, else its BNS name, else short', () => {
    const named = (label: string, bns: string | null): TextContext => ({
      label: (principal) => (principal === ME ? label : ''),
      nameOf: (principal) => (principal === ME ? label || bns : null),
      token: () => undefined,
    });
    const subjectOf = (context: TextContext) => toldAlone(item(1), context).body.split('\n')[0];
    expect(subjectOf(named('Treasury', 'alice.btc'))).toBe('Treasury');
    expect(subjectOf(named('', 'alice.btc'))).toBe('alice.btc');
    expect(subjectOf(named('', null))).toBe(shortPrincipal(ME));
    const [summary] = new TrayModel(named('', 'alice.btc'), { limits: { ...DEFAULT_LIMITS, singles: 1 } }).batch([
      item(1),
      item(2),
    ]);
    expect(summary?.title).toBe('2 new transactions on alice.btc');
  });

  it('reads at a glance', () => {
    expect(alertTitle(item(1), text)).toBe('Received 1,250.00 STX');
    expect(alertTitle(item(1, ME, { phase: 'pending', activity: transfer({ stxNet: -40_000_180n }) }), text)).toBe(
      'Sending 40.00 STX — pending',
    );
    expect(alertTitle(item(1, ME, { phase: 'failed', activity: transfer({ status: 'failed' }) }), text)).toBe(
      'Transfer failed',
    );
    expect(alertTitle(item(1, ME, { phase: 'reverted' }), text)).toBe('Reverted: Received 1,250.00 STX');
    const dropped = item(1, ME, { phase: 'dropped', activity: transfer({ status: 'dropped', stxNet: -40_000_180n }) });
    expect(alertTitle(dropped, text)).toBe('Dropped: Sending 40.00 STX');
    expect(toldAlone(dropped, text).body).toContain('nothing moved');
    expect(placeBatch([dropped], emptyPlanState(), 0, () => 'single').placed).toEqual(
      new Map([[dropped.id, { tag: itemTag(dropped.id) }]]),
    );
    const content = toldAlone(item(1), text);
    expect(content.body).toContain('Treasury');
    expect(content.body).toContain('“rent”');
    expect(content.tag).toBe(`tx:${item(1).id}`);
    expect(content.data.path).toBe(`/address/${ME}#tx-0x1`);
  });

  it('names the address on the first line of the body, which a list headed by it leaves out', () => {
    const body = toldAlone(item(1), text).body;
    expect(body.split('\n')[0]).toBe('Treasury');
    expect(bodyUnderSubject(body)).toBe(body.split('\n').slice(1).join('\n'));
    expect(bodyUnderSubject(body)).toBe(`From ${shortPrincipal(OTHER)}\n“rent”`);
    expect(bodyUnderSubject('Treasury')).toBe('');
  });

  it('recalls a transaction no longer known without its fee, in the words of before or of now', () => {
    const recalled = (title: string) =>
      alertTitle(item(1, ME, { phase: 'reverted', activity: null, recalled: { title, body: 'Treasury' } }), text);
    expect(recalled('Sent 3.00 STX · fee 0.0003 STX')).toBe('Reverted: Sent 3.00 STX');
    expect(recalled('Sent 3 STX · fee 0.0003')).toBe('Reverted: Sent 3 STX');
  });
});
