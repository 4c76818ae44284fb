import type { AlertPhase, TxState } from './alert-ledger.ts';
import type { Network } from '../network.ts';
import type { Activity } from '../state/snapshot.ts';
import { txPartners } from './transfer-pair.ts';
import { groupBy, isFollowUp, type Placement } from './tray-view.ts';
import { itemTag, OVERALL_TAG, summaryTag } from '../text/notification-content.ts';

/** One thing worth telling about one address: a transaction's new state, or its STX locking or unlocking. */
export interface AlertItem {
  /** `network:principal:subject`: one inbox entry per address and transaction, whatever its later states. */
  readonly id: string;
  readonly network: Network;
  readonly principal: string;
  /** The transaction id, or `lock:…` / `unlock:…` for a balance event. */
  readonly subject: string;
  readonly phase: AlertPhase;
  readonly activity: Activity | null;
  /** STX locked or unlocked, for those phases. */
  readonly amount: bigint | null;
  /** Epoch ms when the app learned it. */
  readonly at: number;
  /** Learned by a sync after a (re)connect or a start rather than from a live event: "while you were away". */
  readonly catchUp: boolean;
  /**
   * What was told of it before, for a follow-up whose transaction the app no longer holds (a re-org reverted one
   * that left the bounded history): its words are built from these.
   */
  readonly recalled?: { readonly title: string; readonly body: string };
  /**
   * Told by another alert: the pending and confirmed states of the address's own pox-5 stake, stake-update or unstake,
   * whose effect the staking read tells with its amount and cycles ("Staked 60,000.00 STX · from cycle 142"). The
   * inbox keeps it; it gets no notification of its own unless an earlier state of it had one. A revert of one, and its
   * return to the mempool, are never quiet: no other alert tells them.
   */
  readonly quiet?: true;
  /**
   * Pending again after a re-org took its block away (back in the mempool): told as the revert it follows ("Reverted —
   * back in the mempool"), on its own, until mined again. `told`: the revert was told before, and this replaces it
   * without a second sound; `untold`: heard in the same batch as the revert, it is the revert's only telling.
   */
  readonly afterRevert?: 'told' | 'untold';
}

export const alertId = (network: Network, principal: string, subject: string): string =>
  `${network}:${principal}:${subject}`;

/** The state an alert item tells: its phase and the node's status word of its transaction (sameState). */
export const itemState = (item: Pick<AlertItem, 'phase' | 'activity'>): TxState => ({
  phase: item.phase,
  detail: item.activity?.statusDetail,
});

/** What the planner remembers between batches (in memory: a restart starts a fresh window). */
export interface PlanState {
  /** Times of single notifications of new transactions, per address. */
  readonly singlesAt: ReadonlyMap<string, readonly number[]>;
}

export interface PlanLimits {
  /** At most this many single notifications of new transactions per address within `windowMs`… */
  readonly singles: number;
  readonly windowMs: number;
  /** …and at most this many notifications from one batch before they fold into one overall summary. */
  readonly perBatch: number;
}

export const DEFAULT_LIMITS: PlanLimits = { singles: 3, windowMs: 60_000, perBatch: 4 };

export const emptyPlanState = (): PlanState => ({ singlesAt: new Map() });

/** How an alert was shown before this batch (the inbox remembers): on its own, inside a summary, or not yet. */
export type ShownAs = (id: string) => 'single' | 'summary' | null;

/**
 * Decides where each alert of a batch goes on the tray, kept with its inbox entry (tray-view.ts tells the tray from
 * that): on its own, in its address's summary, or in the overall one; learned while away when all its notification's
 * alerts were. A later state keeps the place its transaction was told in: its own notification, or (placed nowhere new
 * here) its line in a summary, which changes without a sound and counts towards no folding; a quiet one never shown is
 * placed nowhere (the inbox alone keeps it). A revert or a drop is always told on its own. A side of a transaction
 * between watched addresses (`watched`) goes where its other sides were told, or, new, on its own while all its
 * addresses may still be told one by one, else into the overall summary; never into its address's own summary, which
 * the other sides would not join. New alerts of an address are told one by one up to `limits.singles` a window, then
 * in its summary; a batch of more than `limits.perBatch` notifications folds into the overall summary.
 */
export function placeBatch(
  batch: readonly AlertItem[],
  state: PlanState,
  now: number,
  shownAs: ShownAs,
  limits: PlanLimits = DEFAULT_LIMITS,
  watched: (network: Network, principal: string) => boolean = () => false,
): { placed: Map<string, Placement>; state: PlanState } {
  const singlesAt = new Map(state.singlesAt);
  /** Times of the singles told this window for an address (its entry in `singlesAt`, kept current). */
  const recentOf = (key: string): number[] => {
    const recent = (singlesAt.get(key) ?? []).filter((at) => now - at < limits.windowMs);
    singlesAt.set(key, recent);
    return recent;
  };
  // A transaction seen twice in one batch (pending, then mined) is told in its latest state only.
  const latest = [...new Map(batch.map((item) => [item.id, item])).values()];
  const inBatch = new Set(latest.map((item) => item.id));
  // Each side's other parties, as it knows them or as another side in this batch knows it (a token's recipient knows
  // its sender, who learns of the recipient only from its own mined state).
  const known = new Map(latest.map((item) => [item.id, new Set(txPartners(item))]));
  for (const item of latest)
    for (const other of known.get(item.id)!) known.get(alertId(item.network, other, item.subject))?.add(item.principal);
  /** Whether one transaction's sides go on their own, decided once per transaction. */
  const decided = new Map<string, boolean>();
  /** How a new side of a shared transaction goes, or null when it has no other party here, watched nor told. */
  const pairing = (item: AlertItem): 'join' | 'single' | 'fold' | null => {
    const others = [...known.get(item.id)!];
    const shown = others.map((other) => shownAs(alertId(item.network, other, item.subject)));
    if (shown.includes('single')) return 'join';
    if (shown.includes('summary')) return 'fold';
    const partners = others.filter(
      (other) => inBatch.has(alertId(item.network, other, item.subject)) || watched(item.network, other),
    );
    if (partners.length === 0) return null;
    let single = decided.get(item.subject);
    if (single === undefined) {
      const sides = [item.principal, ...partners].map((principal) => recentOf(`${item.network}:${principal}`));
      single = sides.every((recent) => recent.length < limits.singles);
      if (single) for (const recent of sides) recent.push(now);
      decided.set(item.subject, single);
    }
    return single ? 'single' : 'fold';
  };
  const placed = new Map<string, Placement>();
  /** Puts alerts on one notification, learned while away when all of them were. */
  const place = (tag: string, items: readonly AlertItem[]) => {
    const away = items.every((item) => item.catchUp);
    for (const item of items) placed.set(item.id, away ? { tag, away } : { tag });
  };
  const alone = (item: AlertItem) => place(itemTag(item.id), [item]);
  // Joining its other sides' notification, a side is no new notification: it never folds the batch; an update counts.
  let updates = 0;
  /** New notifications of this batch, each its alerts (one alone, else an address's summary), which may fold. */
  const fresh: { tag: string; items: AlertItem[] }[] = [];
  const folded: AlertItem[] = [];
  for (const [key, items] of groupBy(latest, (item) => `${item.network}:${item.principal}`)) {
    const newOnes: AlertItem[] = [];
    for (const item of items) {
      const shown = shownAs(item.id);
      // Told by another alert and never shown: the inbox alone keeps it, whatever its state (the judge marks no revert
      // quiet, nor the return to the mempool that tells one).
      if (item.quiet && shown === null) continue;
      if (isFollowUp(item.phase, item.afterRevert !== undefined) || shown === 'single') {
        alone(item);
        updates++;
      } else if (shown === 'summary' || item.quiet) continue;
      else {
        const pair = pairing(item);
        if (pair === null) newOnes.push(item);
        else if (pair === 'fold') folded.push(item);
        else if (pair === 'join') alone(item);
        else fresh.push({ tag: itemTag(item.id), items: [item] });
      }
    }
    if (newOnes.length === 0) continue;
    const recent = recentOf(key);
    const away = newOnes.every((item) => item.catchUp);
    if ((away && newOnes.length > 1) || recent.length + newOnes.length > limits.singles) {
      const [{ network, principal }] = newOnes as [AlertItem];
      fresh.push({ tag: summaryTag(network, principal), items: newOnes });
    } else {
      fresh.push(...newOnes.map((item) => ({ tag: itemTag(item.id), items: [item] })));
      recent.push(...newOnes.map(() => now));
    }
  }
  if (updates + fresh.length > limits.perBatch && fresh.length > 1)
    folded.unshift(...fresh.splice(0).flatMap(({ items }) => items));
  for (const { tag, items } of fresh) place(tag, items);
  if (folded.length > 0) place(OVERALL_TAG, folded);
  return { placed, state: { singlesAt } };
}
