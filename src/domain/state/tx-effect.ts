import { STX_ASSET } from '../amount.ts';
import type { Activity, Movement } from './snapshot.ts';

/** What one transaction did to one principal's holding of one asset. */
export interface AssetEffect {
  readonly type: 'stx' | 'ft' | 'nft';
  readonly assetIdentifier: string;
  /** Received minus sent, in base units (a count for NFTs); the fee is never part of it. */
  readonly net: bigint;
  /** Minted to the principal, burned from it, or moved between parties. */
  readonly how: 'transfer' | 'mint' | 'burn';
  /** The other parties of the principal's movements of this asset: never the principal, never a token's contract. */
  readonly counterparties: readonly string[];
  /** The NFTs' ids (`u12`), for NFTs whose movements are known. */
  readonly nftIds: readonly string[];
}

export interface TxEffect {
  /** The principal signed the transaction (and paid its fee, unless a sponsor did). */
  readonly signed: boolean;
  /** The fee the principal paid: 0 when someone else paid it (another signer, or the sponsor of what it signed). */
  readonly fee: bigint;
  /** Every asset whose balance changed for the principal, STX first, then the larger movements. */
  readonly effects: readonly AssetEffect[];
  /** Whether every movement is known: false for a contract call whose token movements were not read yet. */
  readonly complete: boolean;
}

/**
 * What a transaction did to `principal`, from its movements when known (both parties of every transfer, mints,
 * burns), else from the node's per-principal net amounts. Direction is the principal's own net per asset, never
 * who signed: a contract call that pays its caller is something received.
 */
export function txEffect(activity: Activity, principal: string): TxEffect {
  const signed = signedBy(activity, principal);
  const fee = feePaid(activity, principal);
  if (activity.movements) {
    return { signed, fee, effects: fromMovements(activity.movements, principal), complete: true };
  }
  const effects: AssetEffect[] = [];
  const stx = activity.stxNet + fee;
  if (stx !== 0n) {
    const other = activity.kind === 'token_transfer' ? activity.counterparty : null;
    effects.push(effect('stx', STX_ASSET, stx, 'transfer', other ? [other] : []));
  }
  for (const change of activity.assets ?? [])
    if (change.net !== 0n) effects.push(effect(change.type, change.assetIdentifier, change.net, 'transfer', []));
  const complete = activity.kind !== 'contract_call' || activity.assets != null;
  return { signed, fee, effects: ordered(effects), complete };
}

/** The fee `principal` paid for the transaction: a sponsored one's sponsor pays it, any other its signer. */
export function feePaid(activity: Activity, principal: string): bigint {
  if (activity.sponsor) return activity.sponsor === principal ? activity.fee : 0n;
  return signedBy(activity, principal) ? activity.fee : 0n;
}

/** Whether the principal signed it; snapshots stored before the sender was kept fall back on what they have. */
export function signedBy(activity: Activity, principal: string): boolean {
  if (activity.sender !== undefined) return activity.sender === principal;
  if (activity.kind === 'token_transfer') return activity.stxNet < 0n;
  if (activity.contractCall) return activity.counterparty === activity.contractCall.contractId;
  return activity.counterparty === null;
}

function fromMovements(movements: readonly Movement[], principal: string): AssetEffect[] {
  const byAsset = new Map<
    string,
    { type: Movement['type']; net: bigint; how: AssetEffect['how']; others: Set<string>; ids: string[] }
  >();
  for (const movement of movements) {
    const gains = movement.recipient === principal;
    const loses = movement.sender === principal;
    if (gains === loses) continue;
    const row = byAsset.get(movement.assetIdentifier) ?? {
      type: movement.type,
      net: 0n,
      how: 'transfer' as AssetEffect['how'],
      others: new Set<string>(),
      ids: [],
    };
    row.net += gains ? movement.amount : -movement.amount;
    if (movement.kind !== 'transfer') row.how = movement.kind;
    const other = gains ? movement.sender : movement.recipient;
    if (other) row.others.add(other);
    if (movement.nftId) row.ids.push(movement.nftId);
    byAsset.set(movement.assetIdentifier, row);
  }
  const effects: AssetEffect[] = [];
  for (const [asset, row] of byAsset)
    if (row.net !== 0n)
      effects.push({ ...effect(row.type, asset, row.net, row.how, [...row.others]), nftIds: row.ids });
  return ordered(effects);
}

const effect = (
  type: AssetEffect['type'],
  assetIdentifier: string,
  net: bigint,
  how: AssetEffect['how'],
  counterparties: readonly string[],
): AssetEffect => ({ type, assetIdentifier, net, how, counterparties, nftIds: [] });

const magnitude = (value: bigint): bigint => (value < 0n ? -value : value);

const ordered = (effects: AssetEffect[]): AssetEffect[] =>
  effects.sort(
    (a, b) =>
      Number(b.type === 'stx') - Number(a.type === 'stx') ||
      (magnitude(b.net) > magnitude(a.net) ? 1 : magnitude(b.net) < magnitude(a.net) ? -1 : 0),
  );

/** The principal's direction in a transaction: it lost something (or signed one that moved nothing), or gained. */
export function isOutgoing(effect: TxEffect): boolean {
  if (effect.effects.length === 0) return effect.signed || effect.fee > 0n;
  return effect.effects.some((asset) => asset.net < 0n);
}
