import type { Network } from '../network.ts';
import type { Activity, ActivityStatus } from '../state/snapshot.ts';
import type { StakingPosition } from '../state/staking.ts';

/** The states a transaction can be in when the node reports it. */
export type TxPhase = 'pending' | 'confirmed' | 'failed' | 'dropped';
export type AlertPhase = TxPhase | 'reverted' | 'locked' | 'unlocked';

export interface SeenEntry {
  readonly phase: AlertPhase;
  /** Block height when mined, null while pending. */
  readonly height: number | null;
  /** Whether the user was told about this subject at least once. */
  readonly told: boolean;
  /** Insertion order, for eviction of subjects that never got a height. */
  readonly order: number;
  /**
   * Recorded as history, whatever came of it since: mined at or below the floor (`true`), so that what it becomes after
   * a re-org is no news either; or pending before the watch (`pending`), where only that pending state is history: once
   * mined after the watch, its outcome is news, and a re-org that takes it back to the mempool untold brings it back to
   * where the watch found it. (Ledgers stored before the two were told apart say `true` for both.)
   */
  readonly history?: true | 'pending';
  /**
   * A mined failure's status word from the node (`abort_by_response`, `problematic_skipped`, …): mined again in
   * another block with another one, it is another outcome (sameState). Absent in ledgers stored before it was kept.
   */
  readonly detail?: string;
}

/**
 * What the app already knows it has seen for one address, so that nothing is told twice: every transaction
 * state observed (told or not), bounded, with a floor height below which anything unknown is old history.
 */
export interface AlertLedger {
  readonly principal: string;
  readonly network: Network;
  /**
   * When this address was first seen by the alerts (ms, this device's clock), only to tell a ledger of an earlier
   * watch of the same address from this one's. What is history is decided by chain position (`floor`), never by time.
   */
  readonly since: number;
  /**
   * Heights at or below it are history: the chain height of the address's first sync (what was mined before the
   * watch began), raised as old subjects are evicted after being seen.
   */
  readonly floor: number;
  /**
   * When the first sync could read only the newest of the address's pending transactions: the receipt time (node
   * clock, Unix seconds) of the oldest it read. One received no later than that was pending before the watch too.
   */
  readonly pendingBefore?: number;
  readonly seen: Readonly<Record<string, SeenEntry>>;
  /**
   * The address's PoX-5 staking as last judged: what the next staking read is compared with. Kept with the seen marks,
   * in the same record, so that what was told and what it was told from are stored together (a tab closed before its
   * snapshot was written lost an unlock: the next read was compared with a position older than the stake it told).
   */
  readonly staking?: StakingPosition;
  readonly counter: number;
  /** Assets the address held or asked for: the unsolicited guard lets these through. */
  readonly knownAssets: readonly string[];
}

export const LEDGER_LIMIT = 400;

/** The key of an address's ledger: one per `network:principal`. */
export const ledgerKey = (ledger: Pick<AlertLedger, 'network' | 'principal'>): string =>
  `${ledger.network}:${ledger.principal}`;

export const newLedger = (
  principal: string,
  network: Network,
  since: number,
  knownAssets: readonly string[] = [],
): AlertLedger => ({ principal, network, since, floor: -1, seen: {}, counter: 0, knownAssets });

/** Which state of a transaction a status is, for alerting. */
export const phaseOf = (status: ActivityStatus): TxPhase => (status === 'success' ? 'confirmed' : status);

/** The states that may follow one another. Everything else (a re-announced pending, a repeat) is not news. */
const FOLLOWS: Readonly<Record<AlertPhase | 'none', readonly AlertPhase[]>> = {
  none: ['pending', 'confirmed', 'failed', 'locked', 'unlocked'],
  // Dropped: it left the mempool unmined (replaced, expired); only a transaction seen pending can be.
  pending: ['confirmed', 'failed', 'dropped'],
  confirmed: ['reverted'],
  failed: ['reverted'],
  // Broadcast again.
  dropped: ['pending', 'confirmed', 'failed'],
  // Back in the mempool or mined again on the new fork.
  reverted: ['pending', 'confirmed', 'failed'],
  locked: [],
  unlocked: [],
};

/** Whether `phase` of `subject` is something the ledger has not seen yet. */
export function isNews(ledger: AlertLedger, subject: string, phase: AlertPhase, height: number | null): boolean {
  const seen = ledger.seen[subject];
  if (!seen && height !== null && height <= ledger.floor) return false;
  return FOLLOWS[seen?.phase ?? 'none'].includes(phase);
}

/** Heights at or below `height` become history: what was mined there and is not recorded is never news. */
export const raiseFloor = (ledger: AlertLedger, height: number | null): AlertLedger =>
  height !== null && height > ledger.floor ? { ...ledger, floor: height } : ledger;

/** After a re-org from `height + 1`: what is mined above `height` may be new, whatever stood there before. */
export const lowerFloor = (ledger: AlertLedger, height: number): AlertLedger =>
  Number.isFinite(height) && height < ledger.floor ? { ...ledger, floor: height } : ledger;

/** A pending transaction the first sync could not read, though it was pending then: history, never news. */
export const pendingBeforeWatch = (ledger: AlertLedger, subject: string, phase: AlertPhase, time: number): boolean =>
  phase === 'pending' && ledger.pendingBefore !== undefined && time <= ledger.pendingBefore && !ledger.seen[subject];

export const wasTold = (ledger: AlertLedger, subject: string): boolean => ledger.seen[subject]?.told ?? false;

/**
 * Records a state as seen (and whether it was told, or it is history), with a mined failure's status word (`detail`);
 * evicts the lowest subjects beyond the limit, raising the floor.
 */
export function record(
  ledger: AlertLedger,
  subject: string,
  phase: AlertPhase,
  height: number | null,
  told: boolean | 'history',
  detail?: string,
): AlertLedger {
  const before = ledger.seen[subject];
  const history =
    told === 'history' ? (phase === 'pending' && before?.history !== true ? 'pending' : true) : before?.history;
  const seen: Record<string, SeenEntry> = {
    ...ledger.seen,
    [subject]: {
      phase,
      height,
      told: told === true || (before?.told ?? false),
      order: ledger.counter,
      ...(history ? { history } : {}),
      ...(phase === 'failed' && detail !== undefined ? { detail } : {}),
    },
  };
  let floor = ledger.floor;
  const keys = Object.keys(seen);
  const excess = keys.length - LEDGER_LIMIT;
  if (excess > 0) {
    // A full ledger is one over at every record: its oldest is found in one pass rather than by sorting 400 entries.
    const evicted =
      excess === 1
        ? [keys.reduce((oldest, key) => (older(seen[key]!, seen[oldest]!) < 0 ? key : oldest))]
        : keys.sort((a, b) => older(seen[a]!, seen[b]!)).slice(0, excess);
    for (const key of evicted) {
      const height = seen[key]!.height;
      if (height !== null) floor = Math.max(floor, height);
      delete seen[key];
    }
  }
  return { ...ledger, seen, floor, counter: ledger.counter + 1 };
}

/**
 * A mined state a re-org took back, as the ledger keeps it. Of one told, or one of history, the revert is recorded:
 * what comes of it next is news only if it was told (settleReorg). One never told that was pending before the watch
 * is pending again as the watch found it: back in the mempool it is no news, mined again it is. Any other never told
 * is forgotten, as if never seen: the user heard nothing of it, so its next state (back pending, mined again) is judged
 * by the rules as any news, never taken for the end of a story nobody was told. `floor` is the ledger's floor before
 * the re-org lowered it: what sits at or below it is history too (the only mark of it in ledgers stored before
 * `history`).
 */
export function revert(ledger: AlertLedger, subject: string, told: boolean, floor: number): AlertLedger {
  const before = ledger.seen[subject];
  const history = before?.history === true || (before?.height != null && before.height <= floor);
  if (told || before?.told || history) return record(ledger, subject, 'reverted', null, told);
  if (before?.history === 'pending') return record(ledger, subject, 'pending', null, 'history');
  const seen = { ...ledger.seen };
  delete seen[subject];
  return { ...ledger, seen };
}

/** Lowest block first; pending subjects (no height) after every mined one; then by insertion. */
const older = (a: SeenEntry, b: SeenEntry): number =>
  (a.height ?? Infinity) - (b.height ?? Infinity) || a.order - b.order;

export function withKnownAssets(ledger: AlertLedger, assets: Iterable<string>): AlertLedger {
  const known = new Set(ledger.knownAssets);
  const before = known.size;
  for (const asset of assets) known.add(asset);
  return known.size === before ? ledger : { ...ledger, knownAssets: [...known] };
}

/** A state of an alert as the ledger, the inbox or a batch holds it: its phase and, when mined, the node's word. */
export interface TxState {
  readonly phase: AlertPhase;
  readonly detail?: string | undefined;
}

/**
 * Whether two states of an alert tell the same: the same phase and, for a mined failure, the same status word of the
 * node where both are known. One the miners skipped reads "Stake skipped as problematic", one the contract refused
 * "Stake failed … Refused by the contract": mined again on another fork with the other outcome, it is news, never a
 * repeat of what was told.
 */
export const sameState = (a: TxState | undefined, b: TxState | undefined): boolean =>
  a !== undefined &&
  b?.phase === a.phase &&
  (a.phase !== 'failed' || a.detail === undefined || b.detail === undefined || a.detail === b.detail);

/** A transaction's subject and state for the ledger. */
export const subjectOf = (activity: Activity): { subject: string; phase: TxPhase } => ({
  subject: activity.txId,
  phase: phaseOf(activity.status),
});
