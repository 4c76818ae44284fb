import type { TxDetail } from '../domain/state/tx-detail.ts';
import { decodeEvents } from './decode-events.ts';
import { decodeAttempt } from './decode-attempt.ts';
import { decodeEventParties, decodeRecentTx, type RecentTx } from './decode-recent.ts';
import { decodeBlock, decodeOffsetPage, type ChainTip, type Page } from './decode.ts';
import { NodeError, type NodeRest } from './node-rest.ts';
import { list, object, text } from './payload.ts';

/** Transactions per `/extended/v1/tx/multiple` request (each id lengthens the URL by ~72 bytes). */
export const DETAIL_BATCH = 20;
/** Events read per transaction: one with more is left for a per-address read. */
const EVENT_LIMIT = 50;
/** Mined transactions per page of the node-wide list. */
export const RECENT_PAGE_LIMIT = 50;

type Found = { txId: string; result: ReturnType<typeof object> & { value: unknown }; path: string };

/** Reads of the chain itself, not of one principal: blocks, the node's recent transactions, their events. */
export async function readBlockAt(rest: NodeRest, height: number): Promise<ChainTip | null> {
  const { data, response } = await rest.api.GET('/extended/v2/blocks/{height_or_hash}', {
    params: { path: { height_or_hash: height } },
  });
  if (response.status === 404) return null;
  return decodeBlock(rest.ok(response, data));
}

/** The node's newest blocks, newest first (`/extended/v2/blocks`, at most 30); empty where the node has no such list. */
export async function readRecentBlocks(rest: NodeRest, limit: number): Promise<ChainTip[]> {
  const answer = await rest.getUntyped('chain', `/extended/v2/blocks?limit=${Math.min(limit, 30)}`);
  if (answer === null) return [];
  return list(object(answer, '$').at('results')).map((field) => decodeBlock(field.value));
}

/** A page of 50 of the node's mined transactions, newest first (`/extended/v1/tx`), without their events. */
export async function readRecentTransactions(
  rest: NodeRest,
  offset: number,
): Promise<Page<RecentTx> & { offset: number }> {
  // The path as every node version serves it (the client library types it with a trailing slash).
  const answer = await rest.getUntyped('chain', `/extended/v1/tx?limit=${RECENT_PAGE_LIMIT}&offset=${offset}`);
  if (answer === null) throw new NodeError(`${rest.node.name} does not list recent transactions`, 404);
  return decodeOffsetPage(answer, decodeRecentTx);
}

/** One transaction as the node has it now (pending, mined or dropped), raw; null when the node does not know it. */
export async function readTransaction(rest: NodeRest, txId: string): Promise<unknown> {
  const { data, response } = await rest.api.GET('/extended/v1/tx/{tx_id}', { params: { path: { tx_id: txId } } });
  if (response.status === 404) return null;
  return rest.ok(response, data);
}

/**
 * Mined transactions' events, read in batches of 20 ids (`/extended/v1/tx/multiple`): every movement with both
 * parties, mints and burns. A transaction the node does not know is left out.
 */
export async function readDetails(
  rest: NodeRest,
  txIds: readonly string[],
  signal?: AbortSignal,
): Promise<Map<string, TxDetail>> {
  const found = new Map<string, TxDetail>();
  for (const { txId, result, path } of await withEvents(rest, txIds, signal)) {
    if (!Array.isArray(result.at('events').value)) continue;
    const events = decodeEvents(result.at('events'));
    // A failed call moved nothing: what it tried is what there is to tell.
    const failed = result.at('tx_status').value !== 'success';
    const attempt = failed ? decodeAttempt({ value: result.value, path }) : null;
    found.set(txId, attempt ? { ...events, attempt } : events);
  }
  return found;
}

/**
 * Everyone the events of mined transactions name, in batches of 20 (`/extended/v1/tx/multiple`); a transaction
 * with more events than were sent is left out, as is one the node does not know: the caller cannot rule on it.
 */
export async function readEventParties(rest: NodeRest, txIds: readonly string[]): Promise<Map<string, string[]>> {
  const found = new Map<string, string[]>();
  for (const { txId, result } of await withEvents(rest, txIds)) {
    const events = result.at('events');
    const count = result.at('event_count').value;
    if (!Array.isArray(events.value) || typeof count !== 'number' || count > events.value.length) continue;
    found.set(txId, decodeEventParties(events));
  }
  return found;
}

/** Mined transactions with up to 50 events each, as the node knows them, in batches of 20 ids. */
async function withEvents(rest: NodeRest, txIds: readonly string[], signal?: AbortSignal): Promise<Found[]> {
  const found: Found[] = [];
  for (let start = 0; start < txIds.length; start += DETAIL_BATCH) {
    const batch = txIds.slice(start, start + DETAIL_BATCH);
    const { data, response } = await rest.api.GET('/extended/v1/tx/multiple', {
      params: { query: { tx_id: batch, event_limit: EVENT_LIMIT } },
      signal,
    });
    const body = object(rest.ok(response, data), '$');
    for (const txId of batch) {
      const entry = body.at(txId);
      if (entry.value === undefined) continue;
      const record = object(entry.value, entry.path);
      if (record.at('found').value !== true) continue;
      const value = record.at('result').value;
      const result = object(value, `${entry.path}.result`);
      if (text(result.at('tx_id')) !== txId) continue;
      found.push({ txId, result: { ...result, value }, path: `${entry.path}.result` });
    }
  }
  return found;
}
