import type { Activity, AddressSnapshot, Holdings } from '../state/snapshot.ts';

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

/** What the holdings card can say of the address's tokens: judged from its whole history, or not yet. */
export type TokenJudgement =
  { readonly judged: true; readonly unsolicited: ReadonlySet<string> } | { readonly judged: false };

/**
 * Which held tokens and NFTs the address never asked for, judged from its whole mined history only, so that every
 * device that watches it reads the same: a device that knows only its newest transactions would take a token it
 * once sent, beyond them, for one it never asked for. Besides what `unsolicitedAssets` finds, what the address held
 * before its first transaction (more held now than its history brought: a genesis share) is its own.
 */
export function judgeTokens(input: {
  readonly principal: string;
  /** Every mined transaction of the address (the kept full history and the newest the engine knows). */
  readonly history: readonly Activity[];
  readonly pending: readonly Activity[];
  /** Whether `history` reaches down to the address's first transaction. */
  readonly complete: boolean;
  readonly holdings: Holdings;
}): TokenJudgement {
  if (!input.complete) return { judged: false };
  const history = byTxId(input.history);
  const candidates = unsolicitedAssets({ principal: input.principal, recent: history, pending: input.pending });
  const net = netOfHistory(input.principal, history);
  const held = (asset: string): bigint =>
    input.holdings.tokens.get(asset) ?? BigInt(input.holdings.nfts.get(asset) ?? 0);
  return {
    judged: true,
    unsolicited: new Set([...candidates].filter((asset) => held(asset) <= (net.get(asset) ?? 0n))),
  };
}

/** One row a transaction, the one that knows its movements where two copies differ. */
function byTxId(activities: readonly Activity[]): Activity[] {
  const rows = new Map<string, Activity>();
  for (const activity of activities) {
    const kept = rows.get(activity.txId);
    if (!kept || (!kept.movements && activity.movements)) rows.set(activity.txId, activity);
  }
  return [...rows.values()];
}

/** What the history brought the address of each token or NFT collection, received minus sent. */
function netOfHistory(principal: string, history: readonly Activity[]): Map<string, bigint> {
  const net = new Map<string, bigint>();
  const add = (asset: string, amount: bigint) => net.set(asset, (net.get(asset) ?? 0n) + amount);
  for (const activity of history) {
    if (activity.status !== 'success') continue;
    if (activity.movements) {
      for (const movement of activity.movements) {
        if (movement.type === 'stx') continue;
        if (movement.recipient === principal) add(movement.assetIdentifier, movement.amount);
        if (movement.sender === principal) add(movement.assetIdentifier, -movement.amount);
      }
    } else for (const change of activity.assets ?? []) add(change.assetIdentifier, change.net);
  }
  return net;
}

/**
 * A name that reads as a web address ("Claim at stx-airdrop.example", "www.free-stx", "https://…"): the classic
 * airdrop lure, never to be shown as if it were a token's plain name.
 */
export function looksLikeLink(name: string): boolean {
  return /:\/\/|\bwww\.|[a-z0-9-]\.[a-z][a-z0-9-]{1,}(?:\/|\b)/i.test(name);
}
