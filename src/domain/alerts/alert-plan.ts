import type { AlertPhase } from './alert-ledger.ts';
import type { Network } from '../network.ts';
import type { Activity } from '../state/snapshot.ts';
import { pairCounterparty } from './transfer-pair.ts';

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
}

export const alertId = (network: Network, principal: string, subject: string): string =>
  `${network}:${principal}:${subject}`;

/** A revert or a drop corrects what was told: always told on its own, never folded into a summary. */
export const isFollowUp = (phase: AlertPhase): boolean => phase === 'reverted' || phase === 'dropped';

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
 * Turns a batch of alerts into notifications. Every item lands in exactly one notice, but a quiet one never shown
 * (the inbox alone keeps it). A later state of a transaction
 * told on its own replaces its notification; one told inside a summary is retold there (never a stale "pending" left
 * on screen); a revert or a drop is always told on its own. A side of a transfer between two watched addresses
 * (`watched`) is never folded into its address's summary: told on its own, or in the overall summary, the other side
 * joins it there whenever it comes (tray.ts), so that one transfer is one notification.
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
  // A transfer between two watched addresses is one notification under one tag, whichever side reaches the alerter
  // first and however far apart: a side joins the other's notification. Decided once per transaction, it is told on
  // its own while both addresses may still be told one by one, else in the overall summary (never the address's own,
  // which the other side would not join).
  const joining: Notice[] = [];
  const pairs: Notice[] = [];
  const pairsFolded: AlertItem[] = [];
  const decided = new Map<string, boolean>();
  // A transaction seen twice in one batch (pending, then mined) is told in its latest state only.
  const latest = [...new Map(batch.map((item) => [item.id, item])).values()];
  const inBatch = new Set(latest.map((item) => item.id));
  /** How the other side of a pair goes, or null for no pair (the other side is neither here, watched nor told). */
  const pairing = (item: AlertItem): 'join' | 'single' | 'fold' | null => {
    const other = pairCounterparty(item);
    if (other === null) return null;
    const otherId = alertId(item.network, other, item.subject);
    const otherShown = shownAs(otherId);
    if (otherShown === 'single') return 'join';
    if (otherShown === 'summary') return 'fold';
    if (!inBatch.has(otherId) && !watched(item.network, other)) return null;
    let single = decided.get(item.subject);
    if (single === undefined) {
      const sides = [recentOf(`${item.network}:${item.principal}`), recentOf(`${item.network}:${other}`)];
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
      const shown = shownAs(item.id);
      if (isFollowUp(item.phase)) updates.push({ kind: 'single', item, update: shown !== null });
      else if (shown === 'summary') retold.push(item);
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
  const overall = (items: readonly AlertItem[]): Notice[] =>
    items.length > 0 ? [{ kind: 'overall', items, away: items.every((item) => item.catchUp) }] : [];
  const told = [...updates, ...joining];
  if (updates.length + pairs.length + fresh.length > limits.perBatch && pairs.length + fresh.length > 1) {
    const items = [...pairs, ...fresh].flatMap(noticeItems);
    return { notices: [...told, ...overall([...items, ...pairsFolded]), ...retell], state: { singlesAt } };
  }
  return { notices: [...told, ...pairs, ...fresh, ...overall(pairsFolded), ...retell], state: { singlesAt } };
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
