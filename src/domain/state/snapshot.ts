import type { Network } from '../network.ts';
import type { CallAttempt } from './call-attempt.ts';
import type { StakingPosition } from './staking.ts';

/** What the app knows about one watched principal; stored per principal and shown without a network. */
export interface StxBalance {
  readonly total: bigint;
  readonly available: bigint;
  readonly locked: bigint;
  /** Burn block height at which the locked part unlocks; null when nothing is locked. */
  readonly unlockBurnHeight: number | null;
  /** Burn height of the transaction that set the lock, and its PoX version (5: staking), where the node says (v3). */
  readonly lockBurnHeight?: number;
  readonly poxVersion?: number;
  /** Whether the node counts transactions of it in its mempool (v3 only; absent where the node cannot say). */
  readonly pending?: boolean;
}

export type ActivityStatus = 'pending' | 'success' | 'failed' | 'dropped';

/** A token or NFT movement of one transaction for this principal (from the node's balance-changes). */
export interface AssetChange {
  readonly type: 'ft' | 'nft';
  readonly assetIdentifier: string;
  /** Base units for a token, a count for NFTs; negative when sent. */
  readonly net: bigint;
}

/**
 * One asset movement of a transaction, with both parties: a transfer, a mint (no sender) or a burn (no recipient).
 * STX is `STX`; a token or NFT its asset identifier (`contract::name`).
 */
export interface Movement {
  readonly type: 'stx' | 'ft' | 'nft';
  readonly assetIdentifier: string;
  readonly kind: 'transfer' | 'mint' | 'burn';
  readonly sender: string | null;
  readonly recipient: string | null;
  /** Base units for STX and tokens; 1 for an NFT. */
  readonly amount: bigint;
  /** The NFT's id as Clarity shows it (`u12`), for NFTs. */
  readonly nftId?: string;
}

export interface TokenMetadata {
  readonly name: string;
  readonly symbol: string;
  readonly decimals: number;
}

export interface Holdings {
  /** Fungible token balances in base units, by asset identifier (`contract::name`). */
  readonly tokens: ReadonlyMap<string, bigint>;
  /** NFTs held, counted per collection asset identifier. */
  readonly nfts: ReadonlyMap<string, number>;
}

export interface Activity {
  readonly txId: string;
  readonly status: ActivityStatus;
  readonly kind: 'token_transfer' | 'contract_call' | 'other';
  /** The other party, when there is one. */
  readonly counterparty: string | null;
  /** STX moved for this principal: received minus sent (the fee included when it paid it: its sender, or its sponsor). */
  readonly stxNet: bigint;
  readonly fee: bigint;
  readonly memo: string | null;
  readonly contractCall: { readonly contractId: string; readonly functionName: string } | null;
  /** Block height when mined, null while pending. */
  readonly blockHeight: number | null;
  /** Position in its block, when the node says: orders the transactions of one block. */
  readonly txIndex?: number;
  /** Unix seconds: block time, or receipt time while pending. */
  readonly time: number;
  /** Token and NFT movements, once known (null until the node's balance-changes were read). */
  readonly assets?: readonly AssetChange[] | null;
  /** Who signed it and with which nonce (a later transaction with the same nonce replaces a pending one). */
  readonly sender?: string;
  /** Who paid its fee in the sender's place (a sponsored transaction); absent or null when the sender paid it. */
  readonly sponsor?: string | null;
  readonly nonce?: number;
  /**
   * Every asset movement of the transaction with both parties, once known: from the transaction itself for an STX
   * transfer, from the node's events for a contract call. Undefined or null until then.
   */
  readonly movements?: readonly Movement[] | null;
  /**
   * An STX transfer's amount as signed: what it moves once mined, or would have moved (a failed one moved nothing, and
   * its words still name what was asked). Absent for anything else and in activity stored before it was kept.
   */
  readonly transferAmount?: bigint;
  /** STX locked for stacking by this transaction (its `stx_lock` event), when known. */
  readonly locked?: bigint | null;
  /** The node's own status word (`abort_by_post_condition`, `dropped_replace_by_fee`, …) for a detail view. */
  readonly statusDetail?: string;
  /** The transaction that replaced this one (a fee bump), when the node says. */
  readonly replacedBy?: string | null;
  /**
   * A contract call's arguments and post-conditions as signed, and its result: a failed one's once read from the node;
   * a pending (or dropped) one's from the mempool's own record of it, with no result.
   */
  readonly attempt?: CallAttempt | null;
}

export interface AddressSnapshot {
  readonly principal: string;
  readonly network: Network;
  readonly stx: StxBalance | null;
  /** Newest first, mined, at most `RECENT_LIMIT`. */
  readonly recent: readonly Activity[];
  readonly pending: readonly Activity[];
  /** Tokens and NFTs, loaded when first looked at; null until then. */
  readonly holdings: Holdings | null;
  /** Epoch milliseconds of the last successful sync with a node. */
  readonly syncedAt: number | null;
  /**
   * The chain height as that sync began: what the app keeps of the history at or below it was read then (a first
   * sync keeps one page). Live events can bring newer transactions across a gap (a dropped socket), so the next
   * sync reads down to this height, not to the newest known transaction. Absent in snapshots stored before it.
   */
  readonly syncedHeight?: number | null;
  /** The lowest height a re-org replaced while this address was followed (domain/state/fork-mark.ts); absent if none. */
  readonly forkedFrom?: number | null;
  /** PoX-5 staking as last read; undefined until read once (a snapshot stored before staking was read has none). */
  readonly staking?: StakingPosition | null;
}

export const RECENT_LIMIT = 50;

export const emptySnapshot = (principal: string, network: Network): AddressSnapshot => ({
  principal,
  network,
  stx: null,
  recent: [],
  pending: [],
  holdings: null,
  syncedAt: null,
  syncedHeight: null,
});

/**
 * Merges mined activity into a snapshot: newest first, each transaction once (a re-announced one replaces its
 * older copy), and a mined transaction leaves the pending list, with any pending one of the same sender and nonce
 * (it replaced that one: see `supersededBy`).
 */
export function mergeMined(snapshot: AddressSnapshot, mined: readonly Activity[]): AddressSnapshot {
  if (mined.length === 0) return snapshot;
  const byId = new Map(snapshot.recent.map((activity) => [activity.txId, activity]));
  for (const activity of mined) {
    // The node's copy of a known transaction lacks what was read about it since (its events): keep that.
    const known = byId.get(activity.txId);
    byId.set(
      activity.txId,
      known?.movements && !activity.movements
        ? { ...activity, movements: known.movements, locked: known.locked ?? null, assets: known.assets ?? null }
        : activity,
    );
  }
  const recent = [...byId.values()]
    .sort(
      (a, b) => (b.blockHeight ?? 0) - (a.blockHeight ?? 0) || (b.txIndex ?? 0) - (a.txIndex ?? 0) || b.time - a.time,
    )
    .slice(0, RECENT_LIMIT);
  const minedIds = new Set(mined.map((activity) => activity.txId));
  const replaced = new Set(supersededBy(snapshot.pending, mined).map((activity) => activity.txId));
  const pending = snapshot.pending.filter((activity) => !minedIds.has(activity.txId) && !replaced.has(activity.txId));
  return { ...snapshot, recent, pending };
}

/**
 * Pending transactions that mined ones replaced: the same sender and nonce under another id (a fee bump, or a
 * wallet's cancel). A nonce is spent once, so these can never be mined: they are dropped, replaced by the mined one.
 * Called replaced by fee (the node's `dropped_replace_by_fee`) only where the mined one paid more: one mined after
 * this was dropped for another reason (left stale, then its nonce used again) paid what it paid.
 */
export function supersededBy(pending: readonly Activity[], mined: readonly Activity[]): Activity[] {
  const spent = new Map<string, Activity>();
  for (const activity of mined)
    if (activity.sender !== undefined && activity.nonce !== undefined)
      spent.set(`${activity.sender}/${activity.nonce}`, activity);
  return pending.flatMap((activity) => {
    const by = spent.get(`${activity.sender}/${activity.nonce}`);
    if (activity.sender === undefined || by === undefined || by.txId === activity.txId) return [];
    // Its pending detail goes: what the node would say of it now is known only where the mined one paid more.
    const dropped: Activity = { ...activity, status: 'dropped', replacedBy: by.txId };
    if (by.fee > activity.fee) return [{ ...dropped, statusDetail: 'dropped_replace_by_fee' }];
    delete (dropped as { statusDetail?: string }).statusDetail;
    return [dropped];
  });
}

/** Replaces the pending list with what the node reports, minus anything already mined. */
export function withPending(snapshot: AddressSnapshot, pending: readonly Activity[]): AddressSnapshot {
  const mined = new Set(snapshot.recent.map((activity) => activity.txId));
  const next = pending.filter((activity) => !mined.has(activity.txId));
  // Unchanged when nothing was and nothing is pending: most addresses, most of the time.
  return next.length === 0 && snapshot.pending.length === 0 ? snapshot : { ...snapshot, pending: next };
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

/**
 * What a re-org took away: known transactions the node's history no longer lists, within the heights that history
 * was read over (above `coveredAbove`; all of it when null, a history read to its end). Compared by identity,
 * never by page position: one page holds only part of a long history.
 */
export function lostInReorg(
  known: readonly Activity[],
  history: readonly Activity[],
  coveredAbove: number | null,
): Activity[] {
  const present = new Set(history.map((activity) => activity.txId));
  return known.filter(
    (activity) =>
      !present.has(activity.txId) && (coveredAbove === null || (activity.blockHeight ?? Infinity) > coveredAbove),
  );
}

/** The time of the last thing that happened to the address, pending included. */
export const lastActivityTime = (snapshot: AddressSnapshot): number | null =>
  Math.max(0, ...snapshot.pending.map((a) => a.time), ...snapshot.recent.slice(0, 1).map((a) => a.time)) || null;
