import { DETAIL_BATCH, RECENT_PAGE_LIMIT, type StacksRestClient } from '../chain/rest-client.ts';
import type { ChainTip } from '../chain/decode.ts';
import type { ResumeAnchor } from '../domain/state/resume-anchor.ts';
import type { AddressSnapshot } from '../domain/state/snapshot.ts';

/** Where a monitor keeps its anchor: across restarts in the page, in memory in the relay. */
export interface AnchorPort {
  get(): ResumeAnchor | null;
  set(anchor: ResumeAnchor): void;
}

export function memoryAnchor(): AnchorPort {
  let anchor: ResumeAnchor | null = null;
  return { get: () => anchor, set: (next) => (anchor = next) };
}

/**
 * Which of `watched` the chain touched above `anchor`: read from the node-wide list of mined transactions (newest
 * first, 50 a page) and the events of those that can move assets for others (20 a request), instead of one history
 * request per principal. Null when it cannot tell for sure (the block at the anchor is not the one remembered: a
 * re-org below it, or another chain), or when telling would cost at least `budget` requests.
 */
export async function touchedSince(
  rest: StacksRestClient,
  anchor: ResumeAnchor,
  watched: ReadonlySet<string>,
  budget: number,
): Promise<Set<string> | null> {
  if (budget <= 2) return null;
  const block = await rest.blockAt(anchor.height);
  if (!block || block.indexHash !== anchor.indexHash) return null;
  let spent = 1;
  const touched = new Set<string>();
  const needEvents: string[] = [];
  for (let offset = 0; ;) {
    if (spent + 1 + Math.ceil(needEvents.length / DETAIL_BATCH) >= budget) return null;
    const page = await rest.recentTransactions(offset);
    spent += 1;
    const above = page.items.filter((tx) => tx.height > anchor.height);
    for (const tx of above) {
      for (const party of tx.parties) if (watched.has(party)) touched.add(party);
      if (tx.needsEvents) needEvents.push(tx.txId);
    }
    // Newest first: a transaction at or below the anchor means everything above it was read. Blocks mined while
    // reading push the list down, so a page may repeat what the last one held, but never skips any.
    if (above.length < page.items.length || !page.next || page.items.length < RECENT_PAGE_LIMIT) break;
    offset += page.items.length;
  }
  const unique = [...new Set(needEvents)];
  if (spent + Math.ceil(unique.length / DETAIL_BATCH) >= budget) return null;
  const parties = unique.length > 0 ? await rest.eventParties(unique) : new Map<string, string[]>();
  for (const txId of unique) {
    const named = parties.get(txId);
    // More events than one request returns, or a transaction the node no longer knows: not for sure.
    if (!named) return null;
    for (const party of named) if (watched.has(party)) touched.add(party);
  }
  return touched;
}

export interface ReconcileInputs {
  readonly principals: readonly string[];
  readonly known: (principal: string) => AddressSnapshot | undefined;
  /** Whether a principal's catch-up, cut short by the page budget, has pages left to read. */
  readonly midCatchUp: (principal: string) => boolean;
  /** Null when there is none, or when a re-org was announced: everything is read then. */
  readonly anchor: ResumeAnchor | null;
  readonly tip: ChainTip;
  readonly rest: StacksRestClient;
}

/**
 * The principals a reconcile must read one by one (`due`) and those the chain has not touched since the anchor
 * (`untouched`), told by `touchedSince` in fewer requests than one per principal. Read one by one regardless: a
 * principal never synced up to the anchor, with a catch-up to go on with, a lock ending, or transactions learned live
 * above the anchor (a re-org there leaves no trace in the canonical list).
 */
export async function planReconcile(inputs: ReconcileInputs): Promise<{ due: string[]; untouched: string[] }> {
  const { principals, known, anchor, tip } = inputs;
  if (!anchor || tip.height < anchor.height) return { due: [...principals], untouched: [] };
  const ownRead = (principal: string): boolean => {
    const snapshot = known(principal);
    if (!snapshot?.stx || snapshot.syncedAt === null || (snapshot.syncedHeight ?? -1) < anchor.height) return true;
    if (inputs.midCatchUp(principal)) return true;
    if (snapshot.stx.unlockBurnHeight != null && tip.burnHeight >= snapshot.stx.unlockBurnHeight) return true;
    return snapshot.recent.some((activity) => (activity.blockHeight ?? 0) > anchor.height);
  };
  const due = principals.filter(ownRead);
  const others = principals.filter((principal) => !ownRead(principal));
  if (others.length === 0) return { due, untouched: [] };
  if (tip.height === anchor.height && tip.indexHash === anchor.indexHash) return { due, untouched: others };
  const touched = await touchedSince(inputs.rest, anchor, new Set(others), others.length).catch(() => null);
  if (!touched) return { due: [...principals], untouched: [] };
  return {
    due: [...due, ...others.filter((principal) => touched.has(principal))],
    untouched: others.filter((principal) => !touched.has(principal)),
  };
}
