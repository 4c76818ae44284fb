import type { AlertFacts } from './alert-facts.ts';
import type { AlertPhase, TxState } from './alert-ledger.ts';
import type { Network } from '../network.ts';
import type { PairWords } from './transfer-pair.ts';
import type { Placement } from './tray-view.ts';

/** How a state of an alert reached the user. */
export type DeliveryVia = 'notification' | 'summary' | 'toast' | 'inbox';

export interface Delivery {
  readonly phase: AlertPhase;
  readonly via: DeliveryVia;
  /** Epoch ms when it was shown. */
  readonly at: number;
}

/** One alert in the activity inbox: one per address and transaction, its latest state on top. */
export interface InboxEntry {
  readonly id: string;
  readonly network: Network;
  readonly principal: string;
  readonly txId: string | null;
  readonly phase: AlertPhase;
  readonly title: string;
  readonly body: string;
  /** In-app path of the address page and transaction. */
  readonly path: string;
  readonly firstAt: number;
  readonly at: number;
  readonly read: boolean;
  readonly deliveries: readonly Delivery[];
  /** Its latest state is stored but not yet shown: shown on the next start if the tab closed in between. */
  readonly undelivered: boolean;
  /** What its latest state is about, as data: a relay sends it so that the device words the alert itself. */
  readonly facts?: AlertFacts;
  /** Its latest state is told by another alert (alert-plan.ts's AlertItem.quiet): kept here, shown nowhere new. */
  readonly quiet?: true;
  /**
   * Its latest state as one side of a transfer between two watched addresses (transfer-pair.ts): shown again after a
   * tab closed, it goes under the pair's tag and words, as it was handed over, never a tag of its own beside them.
   */
  readonly pair?: PairWords;
  /** Where its latest state is told on the system tray (tray-view.ts); absent: a toast, or the inbox alone. */
  readonly tray?: Placement;
}

/**
 * The state an entry tells: its phase and, for a mined failure, the node's status word as its facts keep it. Facts of
 * another state (a relay's push without facts keeps the entry's earlier ones) name no outcome: unknown, as sameState
 * takes an unknown word.
 */
export const entryState = (entry: Pick<InboxEntry, 'phase' | 'facts'> | undefined): TxState | undefined => {
  if (!entry) return undefined;
  const activity = entry.facts?.activity;
  return {
    phase: entry.phase,
    detail: entry.phase === 'failed' && activity?.status === 'failed' ? activity.statusDetail : undefined,
  };
};

/** The inbox keeps the newest alerts up to this many (an entry is about half a kilobyte). */
export const INBOX_LIMIT = 2000;

/**
 * The entry once its state `phase` was shown. That may be an earlier state than the entry's by now (a later one was
 * stored while the earlier was being shown): the later one is still waiting to be shown.
 */
export function withDelivery(entry: InboxEntry, via: DeliveryVia, at: number, phase = entry.phase): InboxEntry {
  // A state delivered once is never recorded twice: a repeat would be a bug the fault tests look for, so it shows.
  return {
    ...entry,
    undelivered: entry.undelivered && phase !== entry.phase,
    deliveries: [...entry.deliveries, { phase, via, at }],
  };
}

/**
 * How the alert was last shown (a state kept in the inbox only does not count): inside a summary, or on its own (a
 * notification or a toast), whose notification a later state then replaces. Told in a summary, then reverted on its
 * own, then mined again: the revert on screen is replaced, never left to say what is no longer true.
 */
export function howShown(entry: InboxEntry | undefined): 'single' | 'summary' | null {
  const shown = [...(entry?.deliveries ?? [])].reverse().find((delivery) => delivery.via !== 'inbox');
  if (!shown) return null;
  return shown.via === 'summary' ? 'summary' : 'single';
}

export const newestFirst = (a: InboxEntry, b: InboxEntry): number => b.at - a.at || a.id.localeCompare(b.id);

/** How many alerts are unread (inbox-pairs.ts's unreadRows counts as the inbox lists them, after first paint). */
export const unreadCount = (entries: Iterable<InboxEntry>): number => {
  let count = 0;
  for (const entry of entries) if (!entry.read) count += 1;
  return count;
};
