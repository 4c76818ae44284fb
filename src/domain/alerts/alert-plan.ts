import type { AlertPhase } from './alert-ledger.ts';
import type { Network } from '../network.ts';
import type { Activity } from '../state/snapshot.ts';
import { txPartners } from './transfer-pair.ts';
import type { Placement } from './tray-view.ts';
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
   * inbox keeps it; it gets no notification of its own unless an earlier state of it had one.
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

/**
 * A revert or a drop corrects what was told: always told on its own, never folded into a summary; so is a
 * transaction back in the mempool after a revert, which is told as that revert until it is mined again.
 */
export const isFollowUp = (phase: AlertPhase, afterRevert = false): boolean =>
  phase === 'reverted' || phase === 'dropped' || (phase === 'pending' && afterRevert);

/** What to show: one transaction (its tag replaces its earlier state), or a summary that grows while it is shown. */
export type Notice =
  | { readonly kind: 'single'; readonly item: AlertItem; readonly update: boolean }
  | {
      readonly kind: 'summary';
      readonly network: Network;
      readonly principal: string;
      readonly items: readonly AlertItem[];
      readonly away: boolean;
    }
  | { readonly kind: 'overall'; readonly items: readonly AlertItem[]; readonly away: boolean }
  /**
   * Later states of transactions told inside a summary: their lines change in a summary still on screen, without a
   * sound; where none is left on screen, the inbox alone tells them (no new notification, no noise).
   */
  | { readonly kind: 'retell'; readonly items: readonly AlertItem[] };

export interface PlanLimits {
  /** At most this many single notifications of new transactions per address within `windowMs`… */
  readonly singles: number;
  readonly windowMs: number;
  /** …and at most this many notifications from one batch before they fold into one overall summary. */
  readonly perBatch: number;
}

export const DEFAULT_LIMITS: PlanLimits = { singles: 3, windowMs: 60_000, perBatch: 4 };

/** What the planner remembers between batches (in memory: a restart starts a fresh window). */
export interface PlanState {
  /** Times of single notifications of new transactions, per address. */
  readonly singlesAt: ReadonlyMap<string, readonly number[]>;
}

export const emptyPlanState = (): PlanState => ({ singlesAt: new Map() });

/** How an alert was shown before this batch (the inbox remembers): on its own, inside a summary, or not yet. */
export type ShownAs = (id: string) => 'single' | 'summary' | null;

/**
 * Decides where each alert of a batch goes on the tray (tray-view.ts tells the tray from that). Every item lands in
 * exactly one notice, but a quiet one never shown (the inbox alone keeps it). A later state keeps the place its
 * transaction was told in: its own notification, or its line in a summary; a revert or a drop is always told on its
 * own. A side of a transaction between watched addresses (`watched`) goes where its other sides were told, or, new,
 * on its own while all its addresses may still be told one by one, else into the overall summary; never into its
 * address's own summary, which the other sides would not join. New alerts of an address are told one by one up to
 * `limits.singles` a window, then in its summary; a batch of more than `limits.perBatch` notifications folds into the
 * overall summary.
 */
export function planNotices(
  batch: readonly AlertItem[],
  state: PlanState,
  now: number,
  shownAs: ShownAs,
  limits: PlanLimits = DEFAULT_LIMITS,
  watched: (network: Network, principal: string) => boolean = () => false,
): { notices: Notice[]; state: PlanState } {
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
  const partnersOf = (item: AlertItem): string[] => [...known.get(item.id)!];
  /** Whether one transaction's sides go on their own, decided once per transaction. */
  const decided = new Map<string, boolean>();
  /** How a new side of a shared transaction goes, or null when it has no other party here, watched nor told. */
  const pairing = (item: AlertItem): 'join' | 'single' | 'fold' | null => {
    const others = partnersOf(item);
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
  const updates: Notice[] = [];
  const joining: Notice[] = [];
  const pairs: Notice[] = [];
  const fresh: Notice[] = [];
  const folded: AlertItem[] = [];
  const retold: AlertItem[] = [];
  for (const [key, items] of groupBy(latest, (item) => `${item.network}:${item.principal}`)) {
    const newOnes: AlertItem[] = [];
    for (const item of items) {
      const shown = shownAs(item.id);
      if (isFollowUp(item.phase, Boolean(item.afterRevert)))
        updates.push({ kind: 'single', item, update: shown !== null });
      else if (shown === 'summary') retold.push(item);
      else if (shown === 'single') updates.push({ kind: 'single', item, update: true });
      else if (item.quiet) continue;
      else {
        const pair = pairing(item);
        // Joining its other sides' notification, it is no new notification: it never folds the batch.
        if (pair === 'join') joining.push({ kind: 'single', item, update: false });
        else if (pair === 'single') pairs.push({ kind: 'single', item, update: false });
        else if (pair === 'fold') folded.push(item);
        else newOnes.push(item);
      }
    }
    if (newOnes.length === 0) continue;
    const recent = recentOf(key);
    const away = newOnes.every((item) => item.catchUp);
    if ((away && newOnes.length > 1) || recent.length + newOnes.length > limits.singles) {
      const [{ network, principal }] = newOnes as [AlertItem];
      fresh.push({ kind: 'summary', network, principal, items: newOnes, away });
    } else {
      fresh.push(...newOnes.map((item): Notice => ({ kind: 'single', item, update: false })));
      recent.push(...newOnes.map(() => now));
    }
  }
  // A retelling makes no sound: it does not count towards folding the batch; nor does a side joining its pair.
  const retell: Notice[] = retold.length > 0 ? [{ kind: 'retell', items: retold }] : [];
  const overall = (items: readonly AlertItem[]): Notice[] =>
    items.length === 0 ? [] : [{ kind: 'overall', items, away: items.every((item) => item.catchUp) }];
  const told = [...updates, ...joining];
  if (updates.length + pairs.length + fresh.length > limits.perBatch && pairs.length + fresh.length > 1)
    return {
      notices: [...told, ...overall([...[...pairs, ...fresh].flatMap(noticeItems), ...folded]), ...retell],
      state: { singlesAt },
    };
  return { notices: [...told, ...pairs, ...fresh, ...overall(folded), ...retell], state: { singlesAt } };
}

/**
 * Where each alert of the planned notices goes on the tray (tray-view.ts): on its own, in its address's summary, or in
 * the overall one. A retold alert keeps the place it was told in (absent here).
 */
export function placements(notices: readonly Notice[]): Map<string, Placement> {
  const placed = new Map<string, Placement>();
  const place = (item: AlertItem, tag: string, away: boolean) =>
    placed.set(item.id, away ? { tag, away: true } : { tag });
  for (const notice of notices) {
    if (notice.kind === 'single') place(notice.item, itemTag(notice.item.id), notice.item.catchUp);
    else if (notice.kind === 'summary')
      for (const item of notice.items) place(item, summaryTag(notice.network, notice.principal), notice.away);
    else if (notice.kind === 'overall') for (const item of notice.items) place(item, OVERALL_TAG, notice.away);
  }
  return placed;
}

export const noticeItems = (notice: Notice): readonly AlertItem[] =>
  notice.kind === 'single' ? [notice.item] : notice.items;

function groupBy<T>(values: readonly T[], keyOf: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}
