import type { Network } from './network.ts';

/** What the app knows about one watched principal; stored per principal and shown without a network. */
export interface StxBalance {
  readonly total: bigint;
  readonly available: bigint;
  readonly locked: bigint;
  /** Burn block height at which the locked part unlocks; null when nothing is locked. */
  readonly unlockBurnHeight: number | null;
}

export type ActivityStatus = 'pending' | 'success' | 'failed' | 'dropped';

export interface Activity {
  readonly txId: string;
  readonly status: ActivityStatus;
  readonly kind: 'token_transfer' | 'contract_call' | 'other';
  /** The other party, when there is one. */
  readonly counterparty: string | null;
  /** STX moved for this principal: received minus sent (fee included when it sent). */
  readonly stxNet: bigint;
  readonly fee: bigint;
  readonly memo: string | null;
  readonly contractCall: { readonly contractId: string; readonly functionName: string } | null;
  /** Block height when mined, null while pending. */
  readonly blockHeight: number | null;
  /** Unix seconds: block time, or receipt time while pending. */
  readonly time: number;
}

export interface AddressSnapshot {
  readonly principal: string;
  readonly network: Network;
  readonly stx: StxBalance | null;
  /** Newest first, mined, at most `RECENT_LIMIT`. */
  readonly recent: readonly Activity[];
  readonly pending: readonly Activity[];
  /** Epoch milliseconds of the last successful sync with a node. */
  readonly syncedAt: number | null;
}

export const RECENT_LIMIT = 50;

export const emptySnapshot = (principal: string, network: Network): AddressSnapshot => ({
  principal,
  network,
  stx: null,
  recent: [],
  pending: [],
  syncedAt: null,
});

/**
 * Merges mined activity into a snapshot: newest first, each transaction once (a re-announced one replaces its
 * older copy), and a mined transaction leaves the pending list.
 */
export function mergeMined(snapshot: AddressSnapshot, mined: readonly Activity[]): AddressSnapshot {
  if (mined.length === 0) return snapshot;
  const byId = new Map(snapshot.recent.map((activity) => [activity.txId, activity]));
  for (const activity of mined) byId.set(activity.txId, activity);
  const recent = [...byId.values()]
    .sort((a, b) => (b.blockHeight ?? 0) - (a.blockHeight ?? 0) || b.time - a.time)
    .slice(0, RECENT_LIMIT);
  const minedIds = new Set(mined.map((activity) => activity.txId));
  return { ...snapshot, recent, pending: snapshot.pending.filter((activity) => !minedIds.has(activity.txId)) };
}

/** Replaces the pending list with what the node reports, minus anything already mined. */
export function withPending(snapshot: AddressSnapshot, pending: readonly Activity[]): AddressSnapshot {
  const mined = new Set(snapshot.recent.map((activity) => activity.txId));
  return { ...snapshot, pending: pending.filter((activity) => !mined.has(activity.txId)) };
}

export function addPending(snapshot: AddressSnapshot, activity: Activity): AddressSnapshot {
  if (
    snapshot.recent.some((known) => known.txId === activity.txId) ||
    snapshot.pending.some((known) => known.txId === activity.txId)
  ) {
    return snapshot;
  }
  return { ...snapshot, pending: [activity, ...snapshot.pending] };
}

/** The newest mined transaction, where a reconcile resumes from. */
export const newestMined = (snapshot: AddressSnapshot): Activity | undefined => snapshot.recent[0];

/** The time of the last thing that happened to the address, pending included. */
export const lastActivityTime = (snapshot: AddressSnapshot): number | null =>
  Math.max(0, ...snapshot.pending.map((a) => a.time), ...snapshot.recent.slice(0, 1).map((a) => a.time)) || null;
