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

/** A token or NFT movement of one transaction for this principal (from the node's balance-changes). */
export interface AssetChange {
  readonly type: 'ft' | 'nft';
  readonly assetIdentifier: string;
  /** Base units for a token, a count for NFTs; negative when sent. */
  readonly net: bigint;
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
  /** STX moved for this principal: received minus sent (fee included when it sent). */
  readonly stxNet: bigint;
  readonly fee: bigint;
  readonly memo: string | null;
  readonly contractCall: { readonly contractId: string; readonly functionName: string } | null;
  /** Block height when mined, null while pending. */
  readonly blockHeight: number | null;
  /** Unix seconds: block time, or receipt time while pending. */
  readonly time: number;
  /** Token and NFT movements, once known (null until the node's balance-changes were read). */
  readonly assets?: readonly AssetChange[] | null;
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

/** Applies one transaction's token and NFT movements to known holdings, and remembers them on its activity. */
export function applyAssetChanges(
  snapshot: AddressSnapshot,
  txId: string,
  changes: readonly AssetChange[],
): AddressSnapshot {
  const recent = snapshot.recent.map((activity) =>
    activity.txId === txId ? { ...activity, assets: changes } : activity,
  );
  const already = snapshot.recent.find((activity) => activity.txId === txId)?.assets;
  if (!snapshot.holdings || already) return { ...snapshot, recent };
  const tokens = new Map(snapshot.holdings.tokens);
  const nfts = new Map(snapshot.holdings.nfts);
  for (const change of changes) {
    if (change.type === 'ft')
      tokens.set(change.assetIdentifier, (tokens.get(change.assetIdentifier) ?? 0n) + change.net);
    else nfts.set(change.assetIdentifier, (nfts.get(change.assetIdentifier) ?? 0) + Number(change.net));
  }
  for (const [asset, amount] of tokens) if (amount <= 0n) tokens.delete(asset);
  for (const [asset, count] of nfts) if (count <= 0) nfts.delete(asset);
  return { ...snapshot, recent, holdings: { tokens, nfts } };
}

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
 * What a re-org took away: known transactions missing from the node's history as far back as it was read (all of
 * it when `complete`).
 */
export function lostInReorg(known: readonly Activity[], history: readonly Activity[], complete: boolean): Activity[] {
  const present = new Set(history.map((activity) => activity.txId));
  const oldestRead = complete ? -Infinity : Math.min(...history.map((activity) => activity.blockHeight ?? Infinity));
  return known.filter((activity) => !present.has(activity.txId) && (activity.blockHeight ?? 0) >= oldestRead);
}

/** The newest mined transaction, where a reconcile resumes from. */
export const newestMined = (snapshot: AddressSnapshot): Activity | undefined => snapshot.recent[0];

/** The time of the last thing that happened to the address, pending included. */
export const lastActivityTime = (snapshot: AddressSnapshot): number | null =>
  Math.max(0, ...snapshot.pending.map((a) => a.time), ...snapshot.recent.slice(0, 1).map((a) => a.time)) || null;
