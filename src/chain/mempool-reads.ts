import type { Activity } from '../domain/state/snapshot.ts';
import { decodeMempoolV1 } from './decode-activity.ts';
import { decodeOffsetPage } from './decode.ts';
import { NodeError, type NodeRest } from './node-rest.ts';

/** A principal with more pending than this many pages of 50 shows the newest 200. */
const MEMPOOL_PAGES = 4;

/** What a principal has pending, as far as it was read. */
export interface MempoolRead {
  readonly items: Activity[];
  /** False when more pages were left unread: only the newest were read. */
  readonly complete: boolean;
}

/**
 * The node's mempool (up to `MEMPOOL_PAGES` pages of 50, newest first), raw: the engine picks what concerns each
 * watched principal. `total` says how many the node holds: beyond what was read, per-principal lists are needed.
 */
export async function readMempool(rest: NodeRest): Promise<{ results: unknown[]; total: number }> {
  const results: unknown[] = [];
  let total = 0;
  for (let page = 0; page < MEMPOOL_PAGES; page++) {
    const { data, response } = await rest.api.GET('/extended/v1/tx/mempool', {
      params: { query: { limit: 50, offset: results.length } },
    });
    const body = rest.ok(response, data) as { results?: unknown; total?: unknown };
    if (!Array.isArray(body.results)) throw new NodeError('the mempool answer has no results list', response.status);
    results.push(...(body.results as unknown[]));
    total = typeof body.total === 'number' && Number.isSafeInteger(body.total) ? body.total : results.length;
    if (body.results.length === 0 || results.length >= total) break;
  }
  return { results, total };
}

/**
 * One principal's pending transactions (the v1 route every node version has), newest first as the node lists them:
 * pages of 50, up to `MEMPOOL_PAGES` of them; `complete` says whether that was all.
 */
export async function readMempoolOf(rest: NodeRest, principal: string): Promise<MempoolRead> {
  const found: Activity[] = [];
  for (let page = 0; page < MEMPOOL_PAGES; page++) {
    const { data, response } = await rest.api.GET('/extended/v1/address/{principal}/mempool', {
      params: { path: { principal }, query: { limit: 50, offset: found.length } },
    });
    const { items, next } = decodeOffsetPage(rest.ok(response, data), (field) => decodeMempoolV1(field, principal));
    found.push(...items);
    if (!next || items.length === 0) return { items: found, complete: true };
  }
  return { items: found, complete: false };
}
