import { record, sameState, subjectOf, type AlertLedger, type TxState } from '../domain/alerts/alert-ledger.ts';
import { itemState, type AlertItem } from '../domain/alerts/alert-plan.ts';
import type { Activity } from '../domain/state/snapshot.ts';

/**
 * What a re-org leaves for the alerts to settle before a transaction's state is judged. A real node puts the
 * transactions of orphaned blocks back in its mempool and mines them again, so the same transaction comes back
 * pending, and mined in another block, perhaps with another outcome. Returns the ledger, and whether the state is
 * still to be judged as news.
 */
export function settleReorg(ledger: AlertLedger, activity: Activity): { ledger: AlertLedger; judge: boolean } {
  const { subject, phase } = subjectOf(activity);
  const prior = ledger.seen[subject];
  const height = activity.blockHeight;
  // History met beyond what the first sync kept: remembered, so that mined again after a re-org it is no news.
  if (!prior && height !== null && height <= ledger.floor)
    return { ledger: record(ledger, subject, phase, height, 'history'), judge: false };
  // Back after a revert nobody was told of, of history: what follows is no news either. It stays recorded as
  // reverted, so that the same holds for whatever comes of it next. (An untold revert of what was not history is not
  // recorded at all, and one of what was pending before the watch is recorded pending again: see revert in
  // alert-ledger.ts.)
  if (prior?.phase === 'reverted' && !prior.told) return { ledger, judge: false };
  // Mined again in another block (the re-org heard only as the new block, or found by a sync): the old block's word
  // no longer holds. The same outcome is not told twice; another one is news, a failure the contract refused after one
  // the miners skipped too (sameState: they are told in other words). A mined transaction changes its outcome only on
  // another fork, so another outcome at the same height is a new block too.
  if (prior?.height != null && height !== null) {
    const detail = activity.statusDetail ?? prior.detail;
    const same = sameState(prior, { phase, detail });
    if (same && prior.height !== height)
      return { ledger: record(ledger, subject, phase, height, false, detail), judge: false };
    if (!same) return { ledger: record(ledger, subject, 'reverted', null, false), judge: true };
  }
  return { ledger, judge: true };
}

/**
 * The batch's alerts without those it took back to the state already stored (reverted, back in the mempool, then
 * mined again before any of it was shown): that state was told already, and showing it again would be a repeat. Mined
 * again with another outcome (sameState), it is news.
 */
export function undoneInBatch(items: readonly AlertItem[], stored: (id: string) => TxState | undefined): AlertItem[] {
  const last = new Map(items.map((item) => [item.id, itemState(item)]));
  return items.filter((item) => !sameState(last.get(item.id), stored(item.id)));
}
