import type { AddressSnapshot } from '../state/snapshot.ts';

/**
 * Tokens and NFTs the address never asked for, as the alert guard judges them: every movement of them into the
 * address that the app knows came in a transaction someone else signed, and the address itself never signed one
 * that moved them or called their contract. (An asset with no known movement is not judged: it may have come
 * before the known history.) A call of its own to the token's contract counts even where what it moved was never
 * read: history from before the address was watched carries its calls, not always their movements.
 */
export function unsolicitedAssets(snapshot: Pick<AddressSnapshot, 'principal' | 'recent' | 'pending'>): Set<string> {
  const received = new Set<string>();
  const asked = new Set<string>();
  const calledContracts = new Set<string>();
  for (const activity of [...snapshot.pending, ...snapshot.recent]) {
    if (activity.status === 'failed' || activity.status === 'dropped') continue;
    const own = activity.sender === snapshot.principal;
    if (own && activity.contractCall) calledContracts.add(activity.contractCall.contractId);
    for (const change of activity.assets ?? []) {
      if (own) asked.add(change.assetIdentifier);
      else if (change.net > 0n) received.add(change.assetIdentifier);
    }
    for (const movement of activity.movements ?? []) {
      if (movement.type === 'stx') continue;
      if (own) asked.add(movement.assetIdentifier);
      else if (movement.recipient === snapshot.principal) received.add(movement.assetIdentifier);
    }
  }
  return new Set([...received].filter((asset) => !asked.has(asset) && !calledContracts.has(asset.split('::')[0]!)));
}

/**
 * A name that reads as a web address ("Claim at stx-airdrop.example", "www.free-stx", "https://…"): the classic
 * airdrop lure, never to be shown as if it were a token's plain name.
 */
export function looksLikeLink(name: string): boolean {
  return /:\/\/|\bwww\.|[a-z0-9-]\.[a-z][a-z0-9-]{1,}(?:\/|\b)/i.test(name);
}
