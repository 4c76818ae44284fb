import type { CallAttempt } from './call-attempt.ts';
import type { Activity, AddressSnapshot, AssetChange, Movement } from './snapshot.ts';

/* A transaction's detail once read (its events, what a failed call tried), applied to its activity and a snapshot. */

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

/** A mined transaction's events, as the node lists them. */
export interface TxDetail {
  readonly movements: readonly Movement[];
  readonly locked: bigint | null;
  /** For a failed contract call: what it tried (call-attempt.ts). */
  readonly attempt?: CallAttempt | null;
}

/** The principal's token and NFT net per asset, from a transaction's movements. */
export function assetChangesOf(movements: readonly Movement[], principal: string): AssetChange[] {
  const net = new Map<string, AssetChange>();
  for (const movement of movements) {
    if (movement.type === 'stx') continue;
    const delta =
      (movement.recipient === principal ? movement.amount : 0n) -
      (movement.sender === principal ? movement.amount : 0n);
    const before = net.get(movement.assetIdentifier);
    net.set(movement.assetIdentifier, {
      type: movement.type,
      assetIdentifier: movement.assetIdentifier,
      net: (before?.net ?? 0n) + delta,
    });
  }
  return [...net.values()].filter((change) => change.net !== 0n);
}

/** A failed contract call whose result and arguments were not read yet (the node's row names neither). */
export const triedUnread = (activity: Activity): boolean =>
  activity.status === 'failed' && activity.kind === 'contract_call' && !activity.attempt;

/** An activity with its events known: every movement, the STX it locked, its token and NFT net for the principal. */
export const withDetail = (activity: Activity, principal: string, detail: TxDetail): Activity => ({
  ...activity,
  movements: detail.movements,
  locked: detail.locked,
  assets: assetChangesOf(detail.movements, principal),
  ...(detail.attempt ? { attempt: detail.attempt } : {}),
});

/** Applies a mined transaction's events to a snapshot: its activity, and the holdings when they are known. */
export function applyDetail(snapshot: AddressSnapshot, txId: string, detail: TxDetail): AddressSnapshot {
  const changed = applyAssetChanges(snapshot, txId, assetChangesOf(detail.movements, snapshot.principal));
  return {
    ...changed,
    recent: changed.recent.map((activity) =>
      activity.txId === txId
        ? {
            ...activity,
            movements: detail.movements,
            locked: detail.locked,
            ...(detail.attempt ? { attempt: detail.attempt } : {}),
          }
        : activity,
    ),
  };
}
