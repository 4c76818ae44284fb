import { UNCHANGED, type StacksRestClient } from '../chain/rest-client.ts';
import type { Activity, AddressSnapshot } from '../domain/state/snapshot.ts';

/**
 * How many history pages (of 20) one sync may walk back to meet where the last complete one stopped. A sync that
 * runs out keeps the height it started from, so the next one reads on: nothing is left behind as synced.
 */
export const MAX_CATCH_UP_PAGES = 50;

/** Where a walk back through an address's history starts, and what it must reach to be complete. */
export interface HistoryWalk {
  readonly known: AddressSnapshot;
  /** A first sync keeps one page: everything older predates the watch. */
  readonly firstSync: boolean;
  /** The height the last complete sync reached (null: none yet). */
  readonly syncedHeight: number | null;
  /** The lowest height a re-org may have rewritten, while one is being read. */
  readonly reorgFrom: number | null;
  /** Where a catch-up cut short by the page budget stopped. */
  readonly cursor: string | null;
}

export interface HistoryRead {
  /** Transactions as the node lists them now, newest first. */
  readonly items: Activity[];
  /** Heights above this were read whole (null: the whole history was read). */
  readonly coveredAbove: number | null;
  /** The node said nothing changed since the last read (an ETag). */
  readonly unchanged: boolean;
  /** False when the page budget ran out first; `next` is where to go on. */
  readonly complete: boolean;
  readonly next?: string | null;
}

/**
 * Reads history pages, newest first. A first sync keeps one page. Later ones walk back (within the page budget)
 * until what was read meets the known history (see `metKnownHistory`).
 */
export async function readHistoryPages(
  rest: StacksRestClient,
  principal: string,
  walk: HistoryWalk,
): Promise<HistoryRead> {
  const items: Activity[] = [];
  let cursor = walk.cursor;
  let lowest = Infinity;
  for (let page = 0; page < MAX_CATCH_UP_PAGES; page++) {
    const answer = await rest.transactions(principal, cursor);
    if (answer === UNCHANGED) return { items, coveredAbove: lowest, unchanged: items.length === 0, complete: true };
    items.push(...answer.items);
    // The lowest block read may continue on the next page: only the heights above it are read whole.
    lowest = Math.min(lowest, ...answer.items.map((activity) => activity.blockHeight ?? Infinity));
    if (!answer.next) return { items, coveredAbove: null, unchanged: false, complete: true };
    if (walk.firstSync || metKnownHistory(walk, items, lowest))
      return { items, coveredAbove: lowest, unchanged: false, complete: true };
    cursor = answer.next;
  }
  return { items, coveredAbove: lowest, unchanged: false, complete: false, next: cursor };
}

/**
 * Whether the pages read so far reach what was known: below the height the last complete sync reached, below the
 * newest known transaction and below a re-org's fork, with that transaction found again, or (when a re-org took it)
 * another known one still at its height to anchor what remains.
 */
function metKnownHistory(walk: HistoryWalk, items: readonly Activity[], lowest: number): boolean {
  const pastFork = walk.reorgFrom === null || lowest < walk.reorgFrom;
  const newest = walk.known.recent[0];
  // Nothing known yet: past the height the last complete sync reached (there is one only if it found nothing).
  if (newest === undefined) return walk.syncedHeight !== null && lowest <= walk.syncedHeight && pastFork;
  const pastSynced = walk.syncedHeight === null || lowest <= walk.syncedHeight;
  const pastNewest = lowest < (newest.blockHeight ?? 0);
  if (!pastSynced || !pastNewest || !pastFork) return false;
  const knownHeights = new Map(walk.known.recent.map((activity) => [activity.txId, activity.blockHeight]));
  return items.some(
    (activity) =>
      activity.txId === newest.txId ||
      (knownHeights.has(activity.txId) && knownHeights.get(activity.txId) === activity.blockHeight),
  );
}
