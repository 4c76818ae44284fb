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
  | {
      readonly kind: 'overall';
      readonly items: readonly AlertItem[];
      readonly away: boolean;
      /** Only later states of alerts told in summaries before, gathered beside their other sides: no sound. */
      readonly silent?: true;
    }
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
 * Turns a batch of alerts into notifications. Every item lands in exactly one notice, but a quiet one never shown
 * (the inbox alone keeps it). A later state of a transaction
 * told on its own replaces its notification; one told inside a summary is retold there (never a stale "pending" left
 * on screen); a revert or a drop is always told on its own. A side of a transaction between watched addresses
 * (`watched`) is never folded into its address's summary: told on its own, or in the overall summary, the other sides
 * join it there whenever they come (tray.ts), so that one transaction is one notification.
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
  const updates: Notice[] = [];
  const fresh: Notice[] = [];
  const retold: AlertItem[] = [];
  // A transaction between watched addresses (a transfer, a call to a watched contract) is one notification under one
  // tag, whichever side reaches the alerter first and however far apart: a side joins the others' notification.
  // Decided once per transaction, it is told on its own while all its addresses may still be told one by one, else in
  // the overall summary (never an address's own, which the other sides would not join).
  const joining: Notice[] = [];
  const pairs: Notice[] = [];
  const pairsFolded: AlertItem[] = [];
  const gathered: AlertItem[] = [];
  const decided = new Map<string, boolean>();
  // A transaction seen twice in one batch (pending, then mined) is told in its latest state only.
  const latest = [...new Map(batch.map((item) => [item.id, item])).values()];
  const inBatch = new Set(latest.map((item) => item.id));
  // Each side's other parties, as it knows them or as another side in this batch knows it (a token's recipient knows
  // its sender, who learns of the recipient only from its own mined state): computed once per alert.
  const known = new Map(latest.map((item) => [item.id, new Set(txPartners(item))]));
  for (const item of latest)
    for (const other of known.get(item.id)!) known.get(alertId(item.network, other, item.subject))?.add(item.principal);
  const partnersOf = (item: AlertItem): string[] => [...known.get(item.id)!];
  const partnerIds = (item: AlertItem) => partnersOf(item).map((other) => alertId(item.network, other, item.subject));
  // A side told in its address's summary before its other sides were known (a token's sender, pending, learns its
  // recipient once mined) leaves that summary when they are told: the transaction is planned afresh, as one.
  const regrouped = new Set(
    latest
      .filter((item) => shownAs(item.id) === 'summary' && !isFollowUp(item.phase, Boolean(item.afterRevert)))
      .filter((item) => {
        const sides = partnersOf(item)
          .map((other) => ({ id: alertId(item.network, other, item.subject), other }))
          .filter(({ id, other }) => inBatch.has(id) || watched(item.network, other))
          .map(({ id }) => ({ here: inBatch.has(id), shown: shownAs(id) }));
        return (
          sides.some(({ shown }) => shown === null) &&
          sides.every(({ here, shown }) => shown === null || (here && shown === 'summary'))
        );
      })
      .map((item) => item.subject),
  );
  /** How an alert was told before this batch, but a side of a transaction planned afresh: not yet. */
  const shownBefore = (id: string, subject: string) => (regrouped.has(subject) && inBatch.has(id) ? null : shownAs(id));
  /** How the other sides of a shared transaction were told before this batch: on their own, in a summary, or not. */
  const partnersShown = (item: AlertItem): 'single' | 'summary' | null => {
    const shown = partnerIds(item).map((id) => shownBefore(id, item.subject));
    return shown.includes('single') ? 'single' : shown.includes('summary') ? 'summary' : null;
  };
  /** How a side of a shared transaction goes, or null when none (no other party here, watched nor told). */
  const pairing = (item: AlertItem): 'join' | 'single' | 'fold' | null => {
    const others = partnersOf(item);
    if (others.length === 0) return null;
    const shown = partnersShown(item);
    if (shown === 'single') return 'join';
    if (shown === 'summary') return 'fold';
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
  for (const [key, items] of groupBy(latest, (item) => `${item.network}:${item.principal}`)) {
    const first = items[0]!;
    const newOnes: AlertItem[] = [];
    for (const item of items) {
      const shown = shownBefore(item.id, item.subject);
      if (isFollowUp(item.phase, Boolean(item.afterRevert)))
        updates.push({ kind: 'single', item, update: shown !== null });
      // A later state of a side told in a summary, its other side in one too (the overall one, where a side told after
      // it went): gathered there, without a sound, its line leaving the address's own summary it may be in.
      else if (shown === 'summary' && partnersShown(item) === 'summary') gathered.push(item);
      else if (shown === 'summary') retold.push(item);
      // Told on its own since (a revert), now back where its other side is told in the overall summary: joins it.
      else if (shown === 'single' && partnersShown(item) === 'summary') pairsFolded.push(item);
      else if (shown === 'single') updates.push({ kind: 'single', item, update: true });
      else if (item.quiet) continue;
      else {
        const pair = pairing(item);
        if (pair === 'join') joining.push({ kind: 'single', item, update: false });
        else if (pair === 'single') pairs.push({ kind: 'single', item, update: false });
        else if (pair === 'fold') pairsFolded.push(item);
        else newOnes.push(item);
      }
    }
    if (newOnes.length === 0) continue;
    const recent = recentOf(key);
    const away = newOnes.every((item) => item.catchUp);
    if ((away && newOnes.length > 1) || recent.length + newOnes.length > limits.singles) {
      fresh.push({ kind: 'summary', network: first.network, principal: first.principal, items: newOnes, away });
    } else {
      fresh.push(...newOnes.map((item): Notice => ({ kind: 'single', item, update: false })));
      recent.push(...newOnes.map(() => now));
    }
  }
  // A retelling makes no sound: it does not count towards folding the batch; nor does a side joining its pair.
  const retell: Notice[] = retold.length > 0 ? [{ kind: 'retell', items: retold }] : [];
  const overall = (items: readonly AlertItem[]): Notice[] => {
    const all = [...items, ...gathered];
    if (all.length === 0) return [];
    const away = all.every((item) => item.catchUp);
    return [{ kind: 'overall', items: all, away, ...(items.length === 0 ? { silent: true as const } : {}) }];
  };
  const told = [...updates, ...joining];
  if (updates.length + pairs.length + fresh.length > limits.perBatch && pairs.length + fresh.length > 1) {
    const items = [...pairs, ...fresh].flatMap(noticeItems);
    return { notices: [...told, ...overall([...items, ...pairsFolded]), ...retell], state: { singlesAt } };
  }
  return { notices: [...told, ...pairs, ...fresh, ...overall(pairsFolded), ...retell], state: { singlesAt } };
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
