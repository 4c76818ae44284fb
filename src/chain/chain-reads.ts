import { decodeChainTx, type ChainTx } from './decode-chain-tx.ts';
import { integer, list, object, text, txId } from './payload.ts';

/**
 * The REST reads a chain follower makes, each costing the node one request whatever the number of principals
 * followed. `NodeGet` answers a path's JSON, null for a 404, and throws for any other failure (in the relay:
 * `NodeRest.getUntyped`, paced by the host's scheduler).
 */
export type NodeGet = (path: string) => Promise<unknown>;

/** A block as the follower keeps it: where it sits, what it builds on, which transactions it holds. */
export interface ChainBlock {
  readonly height: number;
  readonly hash: string;
  readonly parentHash: string;
  /** The ids in block order when known (the `block` event carries them); null when only their count is. */
  readonly txIds: readonly string[] | null;
  readonly txCount: number;
  /** The Bitcoin block it was anchored in: staking moves at burn heights, with no transaction of its own. */
  readonly burnHeight: number;
}

/**
 * Ids per `/extended/v1/tx/multiple` request, comma-separated as the API takes them (67 bytes of URL each: 6.7 kB,
 * under a gateway's 8 kB request line): a block of 100 transactions is one request.
 */
export const TX_BATCH = 100;
/** The API's most events per transaction and request (`ResourceType.Event`, API 9.0.2). */
export const EVENT_LIMIT = 100;
/** The API's most blocks per `/extended/v2/blocks` page. */
export const BLOCK_PAGE = 30;
/** The API's most summaries per `/extended/v3/blocks/{h}/transactions` page. */
const BLOCK_TX_PAGE = 50;

/** The `block` topic's payload (v1 block, `txs` its transaction ids) or a v2 block (`tx_count` only). */
export function decodeChainBlock(value: unknown, path = '$'): ChainBlock {
  const block = object(value, path);
  const txs = block.at('txs');
  const txIds = txs.value === undefined ? null : list(txs).map(txId);
  return {
    height: integer(block.at('height')),
    hash: text(block.at('hash')),
    parentHash: text(block.at('parent_block_hash')),
    txIds,
    txCount: txIds?.length ?? integer(block.at('tx_count')),
    burnHeight: integer(block.at('burn_block_height')),
  };
}

/** Blocks newest first: `limit` (at most 30) from `offset` below the tip. */
export async function readNewestBlocks(get: NodeGet, offset = 0, limit = BLOCK_PAGE): Promise<ChainBlock[]> {
  const answer = await get(`/extended/v2/blocks?limit=${Math.min(limit, BLOCK_PAGE)}&offset=${offset}`);
  if (answer === null) return [];
  return list(object(answer, '$').at('results')).map((field) => decodeChainBlock(field.value, field.path));
}

/** The canonical block at a height, null when the node has none there. */
export async function readBlockAt(get: NodeGet, height: number): Promise<ChainBlock | null> {
  const answer = await get(`/extended/v2/blocks/${height}`);
  return answer === null ? null : decodeChainBlock(answer);
}

/** A block's transaction ids in block order, 50 a page (the route lists the last first). */
export async function readBlockTxIds(get: NodeGet, height: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`;
    const answer = await get(`/extended/v3/blocks/${height}/transactions?limit=${BLOCK_TX_PAGE}${query}`);
    if (answer === null) return [];
    const page = object(answer, '$');
    for (const field of list(page.at('results'))) ids.push(txId(object(field.value, field.path).at('tx_id')));
    const next = object(page.at('cursor').value, '$.cursor').at('next').value;
    cursor = typeof next === 'string' ? next : null;
  } while (cursor !== null);
  return ids.reverse();
}

/**
 * Transactions with all their events: TX_BATCH ids a request with up to 100 events each, then, only for those with
 * more, further pages by `event_offset`, all such transactions in one request a page; the requests of each step are
 * asked for together. A transaction the node does not know is left out.
 */
export async function readTransactions(get: NodeGet, ids: readonly string[]): Promise<Map<string, ChainTx>> {
  const found = new Map<string, ChainTx>();
  for (const tx of (await inBatches(ids, (batch) => readBatch(get, batch, 0))).flat()) found.set(tx.txId, tx);
  for (let offset = EVENT_LIMIT; ; offset += EVENT_LIMIT) {
    const longer = [...found.values()].filter((tx) => tx.eventCount > offset).map((tx) => tx.txId);
    if (longer.length === 0) return found;
    for (const page of (await inBatches(longer, (batch) => readBatch(get, batch, offset))).flat()) {
      const known = found.get(page.txId);
      if (!known) continue;
      const events = [...(known.touching.events ?? []), ...(page.touching.events ?? [])];
      found.set(page.txId, { ...known, touching: { ...known.touching, events }, raw: withRawEvents(known, page) });
    }
  }
}

/**
 * The ids read TX_BATCH at a time, the batches asked for together (the node's pacing still spaces them): a block of
 * 100 transactions waits one round trip to the node, not two, before its alerts are judged.
 */
const inBatches = <T>(ids: readonly string[], read: (batch: readonly string[]) => Promise<T>): Promise<T[]> =>
  Promise.all(
    Array.from({ length: Math.ceil(ids.length / TX_BATCH) }, (_, index) =>
      read(ids.slice(index * TX_BATCH, (index + 1) * TX_BATCH)),
    ),
  );

/** The node's payload with a further page of its events appended: what an alert's words are read from. */
function withRawEvents(known: ChainTx, page: ChainTx): unknown {
  const events = (tx: ChainTx) => (tx.raw as { events?: unknown[] }).events ?? [];
  return { ...(known.raw as object), events: [...events(known), ...events(page)] };
}

async function readBatch(get: NodeGet, ids: readonly string[], eventOffset: number): Promise<ChainTx[]> {
  const query = `tx_id=${ids.join(',')}`;
  const answer = await get(
    `/extended/v1/tx/multiple?${query}&event_limit=${EVENT_LIMIT}${eventOffset > 0 ? `&event_offset=${eventOffset}` : ''}`,
  );
  if (answer === null) return [];
  const body = object(answer, '$');
  return ids.flatMap((id) => {
    const entry = body.at(id);
    if (entry.value === undefined) return [];
    const record = object(entry.value, entry.path);
    if (record.at('found').value !== true) return [];
    return [decodeChainTx(record.at('result'))];
  });
}
