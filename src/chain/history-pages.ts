import type { Activity } from '../domain/state/snapshot.ts';
import { triedUnread, withDetail } from '../domain/state/tx-detail.ts';
import { DETAIL_BATCH, UNCHANGED, type StacksRestClient } from './rest-client.ts';

/** One page of a principal's mined history, every transaction with its asset movements for the principal. */
export interface HistoryPage {
  readonly items: readonly Activity[];
  /** The cursor of the next older page; null when this page is the oldest. */
  readonly next: string | null;
  /** How many mined transactions the node lists for the principal. */
  readonly total: number;
  /** Requests the page cost. */
  readonly requests: number;
}

/**
 * What a transaction needs beyond its row: an STX transfer's one movement is in the row, a failed one moved nothing
 * (but a failed contract call's result and arguments say why and what it tried: those are read with the events).
 */
const needsEvents = (activity: Activity): boolean =>
  (activity.status === 'success' && !activity.movements) || triedUnread(activity);

/**
 * Reads one page of mined history (newest first) and the events of the transactions whose row does not say every
 * movement, through the client (and so the node's pacer) the caller gives. A page the client holds a validator for
 * is read again without it: the history needs its content, not the news that it did not change. `signal`: the
 * caller's (an export the user can cancel): aborted, the page's requests leave the node's queue at once.
 */
export async function readHistoryPage(
  rest: StacksRestClient,
  principal: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<HistoryPage> {
  let requests = 1;
  let page = await rest.transactions(principal, cursor, signal);
  if (page === UNCHANGED) {
    requests += 1;
    rest.forgetValidatorsOf(principal);
    page = await rest.transactions(principal, cursor, signal);
    if (page === UNCHANGED) throw new Error(`the node answered "not modified" for a page of ${principal} read afresh`);
  }
  const unread = page.items.filter(needsEvents).map((activity) => activity.txId);
  const details = await rest.details(unread, signal);
  requests += Math.ceil(unread.length / DETAIL_BATCH);
  const items = page.items.map((activity) => {
    const detail = details.get(activity.txId);
    if (detail) return withDetail(activity, principal, detail);
    // A failed transaction moved nothing but its fee; one whose events the node did not give stays without them.
    return activity.status === 'failed' ? { ...activity, movements: [], assets: [] } : activity;
  });
  return { items, next: page.next, total: page.total, requests };
}
