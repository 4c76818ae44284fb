import type { AlertPhase } from './alert-ledger.ts';
import type { Network } from './network.ts';
import type { Activity } from './snapshot.ts';
import { findPairs, isPair } from './transfer-pair.ts';

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
}

export const alertId = (network: Network, principal: string, subject: string): string =>
  `${network}:${principal}:${subject}`;

/** A revert or a drop corrects what was told: always told on its own, never folded into a summary. */
export const isFollowUp = (phase: AlertPhase): boolean => phase === 'reverted' || phase === 'dropped';

/** What to show: one transaction (its tag replaces its earlier state), or a summary that grows while it is shown. */
export type Notice =
  | {
      readonly kind: 'single';
      readonly item: AlertItem;
      readonly update: boolean;
      /** The receiving side of `item`'s transfer, when it is watched too: told with it as one (transfer-pair.ts). */
      readonly to?: AlertItem;
    }
  | {
      readonly kind: 'summary';
      readonly network: Network;
      readonly principal: string;
      readonly items: readonly AlertItem[];
      readonly away: boolean;
    }
  | { readonly kind: 'overall'; readonly items: readonly AlertItem[]; readonly away: boolean };

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
  /** Alerts told on their own within the window, by id: the sending side a later receiving side pairs with. */
  readonly toldAlone?: ReadonlyMap<string, { readonly item: AlertItem; readonly at: number }>;
  /** Receiving sides last told inside a pair (under the sender's tag), by id, with when: their own tag shows nothing. */
  readonly inPair?: ReadonlyMap<string, number>;
}

export const emptyPlanState = (): PlanState => ({ singlesAt: new Map(), toldAlone: new Map(), inPair: new Map() });

/** How an alert was shown before this batch (the inbox remembers): on its own, inside a summary, or not yet. */
export type ShownAs = (id: string) => 'single' | 'summary' | null;

/**
 * Turns a batch of alerts into notifications. Every item lands in exactly one notice. A later state of a
 * transaction told on its own replaces its notification; one told inside a summary goes to its address's summary
 * again, where it replaces its line (the confirmation of a pending transfer is never left to the inbox alone); a
 * revert or a drop is always told on its own.
 */
export function planNotices(
  batch: readonly AlertItem[],
  state: PlanState,
  now: number,
  shownAs: ShownAs,
  limits: PlanLimits = DEFAULT_LIMITS,
): { notices: Notice[]; state: PlanState } {
  const singlesAt = new Map(state.singlesAt);
  const updates: Notice[] = [];
  const fresh: Notice[] = [];
  // A transaction seen twice in one batch (pending, then mined) is told in its latest state only.
  const all = [...new Map(batch.map((item) => [item.id, item])).values()];
  const toldAlone = new Map([...(state.toldAlone ?? [])].filter(([, told]) => now - told.at < limits.windowMs));
  const inPair = new Map([...(state.inPair ?? [])].filter(([, at]) => now - at < limits.windowMs));
  // A receiving side told inside a pair before has no notification of its own to leave behind.
  const pairable: ShownAs = (id) => (inPair.has(id) ? null : shownAs(id));
  const paired = new Set<string>();
  for (const { from, to } of findPairs(all, pairable)) {
    const key = `${from.network}:${from.principal}`;
    const recent = (singlesAt.get(key) ?? []).filter((at) => now - at < limits.windowMs);
    if (recent.length + 1 > limits.singles) continue;
    const update = shownAs(from.id) === 'single';
    (update ? updates : fresh).push({ kind: 'single', item: from, update, to });
    singlesAt.set(key, [...recent, now]);
    paired.add(from.id).add(to.id);
  }
  // The receiving side learned after its sending side was told alone (the node tells the sender first): the pair
  // replaces the sender's notification, which it carries in the state it was told.
  for (const to of all) {
    if (paired.has(to.id) || pairable(to.id) !== null) continue;
    const from = [...toldAlone.values()]
      .map((told) => told.item)
      .find((told) => isPair(told, to) && shownAs(told.id) === 'single' && !all.some((item) => item.id === told.id));
    if (!from) continue;
    updates.push({ kind: 'single', item: from, update: true, to });
    paired.add(from.id).add(to.id);
  }
  const latest = all.filter((item) => !paired.has(item.id));
  for (const [key, items] of groupBy(latest, (item) => `${item.network}:${item.principal}`)) {
    const first = items[0]!;
    const newOnes: AlertItem[] = [];
    const summarised: AlertItem[] = [];
    for (const item of items) {
      const shown = shownAs(item.id);
      if (isFollowUp(item.phase)) updates.push({ kind: 'single', item, update: shown !== null });
      else if (shown === 'summary') summarised.push(item);
      else if (shown === 'single') updates.push({ kind: 'single', item, update: true });
      else newOnes.push(item);
    }
    const summary = (of: AlertItem[]): Notice => ({
      kind: 'summary',
      network: first.network,
      principal: first.principal,
      items: of,
      away: of.every((item) => item.catchUp),
    });
    if (newOnes.length === 0) {
      if (summarised.length > 0) fresh.push(summary(summarised));
      continue;
    }
    const recent = (singlesAt.get(key) ?? []).filter((at) => now - at < limits.windowMs);
    const away = newOnes.every((item) => item.catchUp);
    if ((away && newOnes.length > 1) || recent.length + newOnes.length > limits.singles) {
      fresh.push(summary([...newOnes, ...summarised]));
    } else {
      fresh.push(...newOnes.map((item): Notice => ({ kind: 'single', item, update: false })));
      if (summarised.length > 0) fresh.push(summary(summarised));
      recent.push(...newOnes.map(() => now));
    }
    singlesAt.set(key, recent);
  }
  const folded = updates.length + fresh.length > limits.perBatch && fresh.length > 1;
  const notices: Notice[] = folded
    ? [
        ...updates,
        {
          kind: 'overall',
          items: fresh.flatMap(noticeItems),
          away: fresh.flatMap(noticeItems).every((item) => item.catchUp),
        },
      ]
    : [...updates, ...fresh];
  for (const notice of noticesTold(notices)) {
    toldAlone.delete(notice.id);
    inPair.delete(notice.id);
    if (notice.as === 'alone') toldAlone.set(notice.id, { item: notice.item, at: now });
    if (notice.as === 'received in a pair') inPair.set(notice.id, now);
  }
  return { notices, state: { singlesAt, toldAlone, inPair } };
}

interface Told {
  readonly id: string;
  readonly item: AlertItem;
  readonly as: 'in a summary' | 'alone' | 'sent in a pair' | 'received in a pair';
}

/** How each alert of these notices is told: what a later pair can build on. */
const noticesTold = (notices: readonly Notice[]): Told[] =>
  notices.flatMap((notice): Told[] =>
    notice.kind !== 'single'
      ? notice.items.map((item) => ({ id: item.id, item, as: 'in a summary' }))
      : notice.to
        ? [
            { id: notice.item.id, item: notice.item, as: 'sent in a pair' },
            { id: notice.to.id, item: notice.to, as: 'received in a pair' },
          ]
        : [{ id: notice.item.id, item: notice.item, as: 'alone' }],
  );

export const noticeItems = (notice: Notice): readonly AlertItem[] =>
  notice.kind === 'single' ? (notice.to ? [notice.item, notice.to] : [notice.item]) : notice.items;

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
