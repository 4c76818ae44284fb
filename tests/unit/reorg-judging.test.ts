import { describe, expect, it } from 'vitest';
import { newLedger, record, type AlertLedger, type AlertPhase } from '../../src/domain/alerts/alert-ledger.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import type { ReorgScope } from '../../src/monitor/ports.ts';
import { judgeInput, type AlertInput } from '../../src/notify/judge-input.ts';
import { settleReorg } from '../../src/notify/reorg-judging.ts';

const BOB = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const WATCHED_AT = 1_700_000_000;
const TX = '0x228071d2';

/** Alice's transfer to Bob, in one of its states: pending, or mined (failed, moving nothing; or done) at `height`. */
function transfer(status: 'pending' | 'failed' | 'success', height: number | null, time = WATCHED_AT + 60): Activity {
  return {
    txId: TX,
    status,
    kind: 'token_transfer',
    counterparty: ALICE,
    stxNet: status === 'failed' ? 0n : 1_250_000_000n,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: height,
    time,
  };
}

/** Bob's alerts as one tab judges them, input after input, with an inbox that keeps what was told. */
function bob() {
  let ledger: AlertLedger = newLedger(BOB, 'testnet', WATCHED_AT * 1000);
  const inbox = new Map<string, InboxEntry>();
  const told: AlertPhase[] = [];
  const items: AlertItem[] = [];
  /** One batch: each input judged in turn, what they tell stored together once all are judged. */
  const batch = (...inputs: AlertInput[]) => {
    const batched: AlertItem[] = [];
    for (const input of inputs)
      ledger = judgeInput(
        input,
        ledger,
        {
          rules: DEFAULT_RULES,
          now: WATCHED_AT * 1000,
          snapshot: () => undefined,
          stored: (id) => inbox.get(id),
          away: () => false,
        },
        batched,
      );
    for (const item of batched) {
      items.push(item);
      told.push(item.phase);
      inbox.set(item.id, { id: item.id, phase: item.phase, title: `${item.phase} 1,250 STX`, body: '' } as InboxEntry);
    }
  };
  const give = (input: AlertInput) => batch(input);
  const base = { network: 'testnet' as const, principal: BOB };
  const goneFrom = (forkFrom: number, ...gone: Activity[]): AlertInput => ({
    ...base,
    kind: 'reverted',
    activities: gone,
    scope: { coveredAbove: null, present: new Set(), forkFrom } satisfies ReorgScope,
  });
  return {
    told,
    items,
    batch,
    goneFrom,
    liveInput: (...activities: Activity[]): AlertInput => ({ ...base, kind: 'activities', activities, source: 'live' }),
    baseline: (height: number, activities: Activity[] = []) => give({ ...base, kind: 'baseline', activities, height }),
    sync: (...activities: Activity[]) => give({ ...base, kind: 'activities', activities, source: 'sync' }),
    live: (...activities: Activity[]) => give({ ...base, kind: 'activities', activities, source: 'live' }),
    /** A re-org from `forkFrom`: the node lists the given transactions as gone, and no longer lists the rest. */
    reverted: (forkFrom: number, ...gone: Activity[]) => give(goneFrom(forkFrom, ...gone)),
  };
}

describe('judging a transaction a re-org put back in the mempool', () => {
  it('tells an incoming transfer pending again that was mined failed, untold, after the watch began', () => {
    for (const listedAsGone of [false, true]) {
      const alerts = bob();
      alerts.baseline(100);
      // Sent and mined failed while the socket was down: read mined by the reconnect, nothing to tell (moved nothing).
      alerts.sync(transfer('failed', 105));
      expect(alerts.told).toEqual([]);
      // The node no longer lists it (the bounded history), or lists it as gone: no revert of what nobody was told.
      alerts.reverted(104, ...(listedAsGone ? [transfer('failed', 105)] : []));
      expect(alerts.told).toEqual([]);
      alerts.live(transfer('pending', null));
      expect(alerts.told, listedAsGone ? 'listed as gone' : 'no longer listed').toEqual(['pending']);
    }
  });

  it('tells nothing of history reverted and back: mined at or below the first sync, or pending before the watch', () => {
    const mined = bob();
    mined.baseline(110, [transfer('failed', 105)]);
    mined.reverted(104);
    mined.live(transfer('pending', null));
    mined.live(transfer('failed', 112));
    expect(mined.told).toEqual([]);

    const pending = bob();
    pending.baseline(100, [transfer('pending', null, WATCHED_AT - 60)]);
    pending.sync(transfer('failed', 105, WATCHED_AT - 60));
    pending.reverted(104, transfer('failed', 105, WATCHED_AT - 60));
    pending.live(transfer('pending', null, WATCHED_AT - 60));
    expect(pending.told).toEqual([]);
  });

  it('tells a transfer pending before the watch that a re-org took back untold, once mined done after it', () => {
    const alerts = bob();
    alerts.baseline(100, [transfer('pending', null, WATCHED_AT - 60)]);
    // Mined failed after the watch began: news, though it moved nothing for Bob (told to no one).
    alerts.live(transfer('failed', 105, WATCHED_AT - 60));
    alerts.reverted(104, transfer('failed', 105, WATCHED_AT - 60));
    // Back in the mempool as the watch found it: no news.
    alerts.sync(transfer('pending', null, WATCHED_AT - 60));
    expect(alerts.told).toEqual([]);
    // Mined again, done this time, after the watch began: Bob received it.
    alerts.live(transfer('success', 108, WATCHED_AT - 60));
    expect(alerts.told).toEqual(['confirmed']);
  });

  it('tells the revert of what was told, then its next state, as before', () => {
    for (const listedAsGone of [false, true]) {
      const alerts = bob();
      alerts.baseline(100);
      alerts.live(transfer('success', 105));
      alerts.reverted(104, ...(listedAsGone ? [transfer('success', 105)] : []));
      alerts.live(transfer('pending', null));
      alerts.live(transfer('success', 106));
      expect(alerts.told).toEqual(['confirmed', 'reverted', 'pending', 'confirmed']);
      // Back in the mempool it is told as the revert it follows, the revert having been told: without a second sound.
      expect(alerts.items.map((item) => item.afterRevert ?? null)).toEqual([null, null, 'told', null]);
    }
  });

  it('tells a revert heard in one batch with the return to the mempool as that return, aloud', () => {
    const alerts = bob();
    alerts.baseline(100);
    alerts.live(transfer('success', 105));
    alerts.batch(alerts.goneFrom(104, transfer('success', 105)), alerts.liveInput(transfer('pending', null)));
    expect(alerts.told).toEqual(['confirmed', 'reverted', 'pending']);
    // The planner tells a batch's latest state of an alert only: the pending one carries the revert, unheard so far.
    expect(alerts.items.at(-1)?.afterRevert).toBe('untold');
  });

  it('tells an untold transfer mined failed, then mined done in another block, as received', () => {
    const alerts = bob();
    alerts.baseline(100);
    alerts.sync(transfer('failed', 105));
    alerts.live(transfer('success', 106));
    expect(alerts.told).toEqual(['confirmed']);
  });
});

describe('a failure heard mined again in another block', () => {
  const refused: Activity = { ...transfer('failed', 107), statusDetail: 'abort_by_response' };
  /** Bob's ledger, the transfer told failed at height 105 with the node's status word `detail`. */
  const toldFailed = (detail?: string) =>
    record(newLedger(BOB, 'testnet', WATCHED_AT * 1000), TX, 'failed', 105, true, detail);

  it('is judged again where it fails otherwise: skipped as problematic before, refused by the contract now', () => {
    expect(settleReorg(toldFailed('problematic_skipped'), refused).judge).toBe(true);
  });

  it('is no news where it fails the same way, or where the ledger kept no status word (stored before it did)', () => {
    for (const detail of ['abort_by_response', undefined]) {
      const settled = settleReorg(toldFailed(detail), refused);
      expect(settled.judge, String(detail)).toBe(false);
      expect(settled.ledger.seen[TX]).toMatchObject({ phase: 'failed', height: 107, detail: 'abort_by_response' });
    }
  });
});
