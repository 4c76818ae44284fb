import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { addToBurst, newestOf, type ToastBurst, spokenView, viewBurst } from '../../src/domain/alerts/toast-view.ts';
import type { TextContext } from '../../src/domain/text/alert-text.ts';
import type { NotificationContent } from '../../src/domain/text/notification-content.ts';
import { toldAlone } from '../support/told.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { BURST_MAX_MS, SAY_EVERY_MS, toasts } from '../../src/app/toasts.ts';

/**
 * Issue 33: a toast tells the newest alert in its own words with "+N more" for the others of its burst, and is never
 * silent while alerts arrive. Checked over generated traffic: transfers between three watched addresses (told as one
 * notification, both sides) and to an address nobody watches, each side pending, then confirmed, in any order.
 * A failure prints fast-check's seed; TOAST_SEED=<seed> runs that one again.
 */

const WATCHED = [
  'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4',
  'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG',
  'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC',
];
const STRANGER = 'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5';
const labels = new Map(WATCHED.map((principal, n) => [principal, ['Alice', 'Walker', 'Carol'][n]!]));
const text: TextContext = { label: (p) => labels.get(p) ?? '', nameOf: () => null, token: () => undefined };
const SEED = { seed: Number(process.env['TOAST_SEED'] ?? Date.now() % 2 ** 31) };
const SHOWN_MS = 8000;

/** Transaction `tx` of the traffic: who sends to whom (3 is the stranger), and an amount of its own (words differ). */
const transfer = (tx: number) => ({
  sender: WATCHED[tx % 3]!,
  recipient: tx % 4 === 3 ? STRANGER : WATCHED[(tx + 1) % 3]!,
});

interface Arrival {
  readonly tx: number;
  /** 0 the sender's side, 1 the recipient's (the sender's again when the recipient is not watched). */
  readonly side: 0 | 1;
  readonly phase: 'pending' | 'confirmed';
}

const arrival = fc.record({
  tx: fc.integer({ min: 0, max: 7 }),
  side: fc.constantFrom(0 as const, 1 as const),
  phase: fc.constantFrom('pending' as const, 'confirmed' as const),
});

function principalOf({ tx, side }: Arrival): string {
  const { sender, recipient } = transfer(tx);
  return side === 1 && recipient !== STRANGER ? recipient : sender;
}

/** The notification content the app toasts for an arrival, made as the engine makes it. */
function told(event: Arrival): NotificationContent {
  const { sender, recipient } = transfer(event.tx);
  const principal = principalOf(event);
  const amount = BigInt(event.tx + 1) * 1_000_000n;
  const txId = `0x${event.tx.toString(16).padStart(4, '0')}`;
  const activity: Activity = {
    txId,
    status: event.phase === 'pending' ? 'pending' : 'success',
    kind: 'token_transfer',
    counterparty: principal === sender ? recipient : sender,
    stxNet: principal === sender ? -(amount + 180n) : amount,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: event.phase === 'pending' ? null : 12,
    time: 1_700_000_000,
    sender,
    movements: [{ type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender, recipient, amount }],
  };
  const item: AlertItem = {
    id: alertId('testnet', principal, txId),
    network: 'testnet',
    principal,
    subject: txId,
    phase: event.phase,
    activity,
    amount: null,
    at: 0,
    catchUp: false,
  };
  return toldAlone(item, text);
}

const idOf = (event: Arrival) => alertId('testnet', principalOf(event), `0x${event.tx.toString(16).padStart(4, '0')}`);

/** The words the newest alert must be told in: its transaction's, told as one once another side is in the burst. */
function wordsOf(content: NotificationContent, burstIds: ReadonlySet<string>): { title: string; body: string } {
  const pair = content.data.pair;
  const [id] = content.data.ids;
  const txId = id!.split(':')[2];
  const otherSide = [...burstIds].some((other) => other !== id && other.split(':')[2] === txId);
  return pair && otherSide ? { title: pair.title, body: pair.body } : { title: content.title, body: content.body };
}

describe('a toast burst tells the newest alert, with "+N more"', () => {
  it('shows the newest alert’s words, counts the others once each, and lets a later state replace', () => {
    fc.assert(
      fc.property(fc.array(arrival, { minLength: 1, maxLength: 30, size: 'max' }), (events) => {
        let burst: ToastBurst | null = null;
        const ids = new Set<string>();
        const txs = new Set<number>();
        for (const event of events) {
          const content = told(event);
          burst = addToBurst(burst, content);
          ids.add(idOf(event));
          txs.add(event.tx);
          const view = viewBurst(burst);
          const newest = newestOf(burst);
          // The newest is the transaction that just arrived, in the words of its latest state.
          expect(newest.data.ids).toContain(idOf(event));
          expect({ title: view.title, body: view.body }).toEqual(wordsOf(content, ids));
          expect(view.path).toBe(newest.data.path);
          // One entry per transaction: a later state replaced the earlier, the sides of a pair joined.
          const carriers = [...burst.byTag.values()].filter((shown) => shown.data.ids.includes(idOf(event)));
          expect(carriers).toEqual([newest]);
          // A toast of a transaction's sides keeps each side's own words (PairWords.sides), as the tray's does.
          if (newest.data.ids.length > 1)
            expect(Object.keys(newest.data.pair?.sides ?? {})).toEqual(expect.arrayContaining([...newest.data.ids]));
          expect(burst.byTag.size).toBe(txs.size);
          // "+N more": the other transactions of the burst, a transfer between watched addresses once.
          expect(view.more).toBe(txs.size - 1);
          const pages = new Set([...burst.byTag.values()].map((shown) => shown.data.path.split('#')[0]));
          expect(view.morePath).toBe(pages.size === 1 ? [...pages][0] : '/inbox');
        }
      }),
      SEED,
    );
  });

  it('says each line once as a sentence to a screen reader, never two full stops', () => {
    const view = {
      title: 'Unlocked 17,203.00 STX',
      body: 'Dave\nThese STX can be spent again.',
      more: 6,
    } as Parameters<typeof spokenView>[0];
    expect(spokenView(view)).toBe('Unlocked 17,203.00 STX. Dave. These STX can be spent again. And 6 more');
  });

  it('says "+N more" to a screen reader as words', () => {
    const first = told({ tx: 3, side: 0, phase: 'pending' });
    const view = viewBurst(addToBurst(addToBurst(null, first), told({ tx: 1, side: 0, phase: 'pending' })));
    expect(view.more).toBe(1);
    expect(spokenView(view)).toMatch(new RegExp(`^${view.title}\\. .*And 1 more$`, 's'));
  });
});

type Step =
  | { readonly kind: 'show'; readonly event: Arrival }
  | { readonly kind: 'wait'; readonly ms: number }
  | { readonly kind: 'hold' | 'release' | 'dismiss' };

/** Mostly steady traffic (the next alert before the toast fades), with pauses longer than a burst now and then. */
const wait = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: SHOWN_MS - 1 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 * BURST_MAX_MS }) },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: arrival.map((event) => ({ kind: 'show' as const, event })) },
  { weight: 4, arbitrary: wait.map((ms) => ({ kind: 'wait' as const, ms })) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('hold' as const, 'release' as const, 'dismiss' as const).map((kind) => ({ kind })),
  },
);

describe('the toast is never silent while alerts arrive, and calm', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    toasts.drawnOnScreen(true);
  });
  afterEach(() => {
    toasts.dismiss();
    toasts.drawnOnScreen(false);
    vi.useRealTimers();
  });

  it('gives an alert its time to be read from when the toast could be drawn (its view loads with the first alert)', () => {
    toasts.drawnOnScreen(false);
    toasts.show(told({ tx: 1, side: 0, phase: 'confirmed' }));
    vi.advanceTimersByTime(SHOWN_MS * 3);
    expect(toasts.get()).not.toBeNull();
    toasts.drawnOnScreen(true);
    vi.advanceTimersByTime(SHOWN_MS - 1);
    expect(toasts.get()).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(toasts.get()).toBeNull();
  });

  it('shows every arriving alert at once, whatever came before; fades after the newest; a burst never grows for ever', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 80, size: 'max' }), arrival, (steps, last) => {
        toasts.dismiss();
        toasts.release();
        let held = false;
        /**
         * Each burst (its key): when it began, whether it was held (then it may grow past its longest), and the alerts
         * and transactions that came in it.
         */
        const bursts = new Map<number, { start: number; held: boolean; ids: Set<string>; txs: Set<number> }>();
        const said: { at: number; key: number; words: string }[] = [];
        const unsubscribe = toasts.subscribe(() => {
          const toast = toasts.get();
          if (toast?.said && toast.said !== said[said.length - 1]?.words)
            said.push({ at: Date.now(), key: toast.key, words: toast.said });
        });
        const show = (event: Arrival) => {
          const content = told(event);
          toasts.show(content);
          const toast = toasts.get();
          const burst = bursts.get(toast?.key ?? -1) ?? { start: Date.now(), held, ids: new Set(), txs: new Set() };
          // Never silent: up, telling this transaction in its words, and the others of its burst as "+N more".
          expect(toast).not.toBeNull();
          bursts.set(toast!.key, burst);
          burst.held ||= held;
          burst.ids.add(idOf(event));
          burst.txs.add(event.tx);
          const view = viewBurst(toast!.burst);
          expect(newestOf(toast!.burst).data.ids).toContain(idOf(event));
          expect({ title: view.title, body: view.body }).toEqual(wordsOf(content, burst.ids));
          expect(view.more).toBe(burst.txs.size - 1);
          if (!burst.held) expect(Date.now() - burst.start).toBeLessThan(BURST_MAX_MS);
        };
        try {
          for (const action of steps) {
            if (action.kind === 'show') show(action.event);
            else if (action.kind === 'wait') vi.advanceTimersByTime(action.ms);
            else {
              toasts[action.kind]();
              if (action.kind === 'hold') {
                held = true;
                const burst = bursts.get(toasts.get()?.key ?? -1);
                if (burst) burst.held = true;
              } else held = false;
            }
          }
          show(last);
          // A screen reader hears the newest once things settle, and is never told more often than every few seconds.
          vi.advanceTimersByTime(SAY_EVERY_MS);
          const toast = toasts.get()!;
          expect(toast.said).toBe(spokenView(viewBurst(toast.burst)));
          said.forEach((line, n) => {
            const before = said[n - 1];
            if (before && before.key === line.key) expect(line.at - before.at).toBeGreaterThanOrEqual(SAY_EVERY_MS);
          });
          // Calm: held, it stays; let go, it fades `SHOWN_MS` after the newest alert or the release, not before.
          let left = SHOWN_MS - SAY_EVERY_MS;
          if (held) {
            vi.advanceTimersByTime(10 * SHOWN_MS);
            expect(toasts.get()).not.toBeNull();
            toasts.release();
            held = false;
            left = SHOWN_MS;
          }
          vi.advanceTimersByTime(left - 1);
          expect(toasts.get()).not.toBeNull();
          vi.advanceTimersByTime(1);
          expect(toasts.get()).toBeNull();
          // The next alert starts a new burst: its count from zero.
          show(last);
          expect(viewBurst(toasts.get()!.burst).more).toBe(0);
        } finally {
          unsubscribe();
        }
      }),
      SEED,
    );
  });
});
