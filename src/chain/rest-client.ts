import { createClient } from '@stacks/blockchain-api-client';
import type { Purpose } from '../domain/privacy/disclosure.ts';
import type { Activity, AssetChange, StxBalance, TokenMetadata } from '../domain/state/snapshot.ts';
import {
  decodeBalanceChanges,
  decodeBalancesV1,
  decodeFtBalances,
  decodeNftCounts,
  decodeTokenMetadata,
  decodeCursorPage,
  decodeOffsetPage,
  decodeBlock,
  decodeStatus,
  decodeStxV1,
  decodeStxV3,
  type ChainTip,
  type Page,
} from './decode.ts';
import { decodeEventParties, decodeRecentTx, type RecentTx } from './decode-recent.ts';
import { decodeEvents, decodeMempoolV1, decodeTransactionV3, decodeWithTransfers } from './decode-activity.ts';
import { object, text } from './payload.ts';
import type { TxDetail } from '../domain/state/snapshot.ts';
import type { NodeConfig } from './networks.ts';
import { platformFetch, sendRequest } from './outbound.ts';
import type { HostScheduler } from './scheduler.ts';

export class NodeError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

export const UNCHANGED = 'unchanged' as const;
export const TX_PAGE_LIMIT = 20;
/** Transactions per `/extended/v1/tx/multiple` request (each id lengthens the URL by ~72 bytes). */
export const DETAIL_BATCH = 20;
/** Events read per transaction: one with more is left for a per-address read. */
const EVENT_LIMIT = 50;
/** Mined transactions per page of the node-wide list. */
export const RECENT_PAGE_LIMIT = 50;
/** A principal with more pending than this many pages of 50 shows the newest 200. */
const MEMPOOL_PAGES = 4;

/** What a principal has pending, as far as it was read. */
export interface MempoolRead {
  readonly items: Activity[];
  /** False when more pages were left unread: only the newest were read. */
  readonly complete: boolean;
}

export interface RestClientOptions {
  /** Whether the node has the v3 routes, when learned before (by an earlier run): no probe then. */
  readonly knownV3?: boolean | null;
  /** Called once when a probe tells whether the node has the v3 routes. */
  readonly onV3Learned?: (v3: boolean) => void;
}

/**
 * One node's REST API: the v3 principal routes, or the v1/v2 routes of an older node (detected once, from a 404
 * on v3). Every answer is validated and decoded; a malformed one throws, and nothing of it is returned.
 */
export class StacksRestClient {
  /** null until the first v3 call tells (or an earlier run told). */
  private v3: boolean | null;
  /** The one v3 call in flight that will tell; the others wait for it rather than each probing. */
  private probe: { done: Promise<void>; settle: () => void } | null = null;
  /** The ETag of each history page read, by principal (forgetting one principal's must not scan everyone's). */
  private readonly etags = new Map<string, Map<string, string>>();
  private readonly api;

  constructor(
    readonly node: NodeConfig,
    private readonly scheduler: HostScheduler,
    private readonly fetchImpl: typeof fetch = platformFetch,
    private readonly options: RestClientOptions = {},
  ) {
    this.v3 = options.knownV3 ?? null;
    this.api = createClient({
      baseUrl: node.url,
      headers: this.keyHeader(),
      fetch: (request: Request) =>
        scheduler.fetch((signal) => sendRequest('chain', simpleGet(request, signal), undefined, fetchImpl)),
    });
  }

  /**
   * Forgets the ETags held: after a re-org, a page can be back to what it was at the last fetch, and a 304 would
   * then hide that transactions learned since (from events) are gone.
   */
  forgetValidators(): void {
    this.etags.clear();
  }

  get usesV3(): boolean | null {
    return this.v3;
  }

  async status(): Promise<ChainTip> {
    const { data, response } = await this.api.GET('/extended', {});
    return decodeStatus(this.ok(response, data));
  }

  async stxBalance(principal: string): Promise<StxBalance> {
    if (await this.tryV3()) {
      const { data, response } = await this.probing(() =>
        this.api.GET('/extended/v3/principals/{principal}/balances/stx', { params: { path: { principal } } }),
      );
      if (!this.isOldNode(response)) return decodeStxV3(this.ok(response, data));
    }
    const { data, response } = await this.api.GET('/extended/v1/address/{principal}/stx', {
      params: { path: { principal } },
    });
    return decodeStxV1(this.ok(response, data));
  }

  /**
   * A page of mined transactions, newest first. Sends the ETag it holds for the same page, so that an unchanged
   * history costs a 304 where the node's ETag is readable.
   */
  async transactions(principal: string, cursor: string | null): Promise<Page<Activity> | typeof UNCHANGED> {
    if (await this.tryV3()) {
      const page = `v3:${cursor ?? ''}`;
      const { data, response } = await this.probing(() =>
        this.api.GET('/extended/v3/principals/{principal}/transactions', {
          params: { path: { principal }, query: { limit: TX_PAGE_LIMIT, ...(cursor ? { cursor } : {}) } },
          headers: this.conditional(principal, page),
        }),
      );
      if (!this.isOldNode(response)) {
        if (response.status === 304) return UNCHANGED;
        const decoded = decodeCursorPage(this.ok(response, data), (field) => decodeTransactionV3(field, principal));
        this.remember(principal, page, response);
        return decoded;
      }
    }
    const offset = Number(cursor ?? 0);
    const { data, response } = await this.api.GET('/extended/v1/address/{principal}/transactions_with_transfers', {
      params: { path: { principal }, query: { limit: TX_PAGE_LIMIT, offset } },
    });
    return decodeOffsetPage(this.ok(response, data), (field) => decodeWithTransfers(field, principal));
  }

  /** Tokens and NFT counts: v3 `balances/ft` and `balances/nft`, or v1 `balances` on an older node. */
  async holdings(principal: string): Promise<{ tokens: Map<string, bigint>; nfts: Map<string, number> }> {
    if (await this.tryV3()) {
      const path = { path: { principal } };
      const ft = await this.probing(() =>
        this.api.GET('/extended/v3/principals/{principal}/balances/ft', { params: { ...path, query: { limit: 200 } } }),
      );
      if (!this.isOldNode(ft.response)) {
        const nft = await this.api.GET('/extended/v3/principals/{principal}/balances/nft', {
          params: { ...path, query: { limit: 200 } },
        });
        return {
          tokens: decodeFtBalances(this.ok(ft.response, ft.data)),
          nfts: decodeNftCounts(this.ok(nft.response, nft.data)),
        };
      }
    }
    const { data, response } = await this.api.GET('/extended/v1/address/{principal}/balances', {
      params: { path: { principal } },
    });
    return decodeBalancesV1(this.ok(response, data));
  }

  /** Token and NFT movements of up to 20 transactions (v3 only: an older node has no such route). */
  async balanceChanges(principal: string, txIds: readonly string[]): Promise<Map<string, AssetChange[]>> {
    if (txIds.length === 0 || !(await this.tryV3())) return new Map();
    const { data, response } = await this.probing(() =>
      this.api.GET('/extended/v3/principals/{principal}/balance-changes', {
        params: { path: { principal }, query: { tx_id: txIds.slice(0, 20), limit: 50 } },
      }),
    );
    if (this.isOldNode(response)) return new Map();
    return decodeBalanceChanges(this.ok(response, data));
  }

  /** A token's name, symbol and decimals from the token metadata API; null when the node does not know it. */
  async tokenMetadata(contractId: string): Promise<TokenMetadata | null> {
    const body = await this.getOutsideClient('tokens', `/metadata/v1/ft/${encodeURIComponent(contractId)}`);
    return body === null ? null : decodeTokenMetadata(body);
  }

  /**
   * The node's mempool (up to `MEMPOOL_PAGES` pages of 50, newest first), raw: the engine picks what concerns each
   * watched principal. `total` says how many the node holds: beyond what was read, per-principal lists are needed.
   */
  async mempool(): Promise<{ results: unknown[]; total: number }> {
    const results: unknown[] = [];
    let total = 0;
    for (let page = 0; page < MEMPOOL_PAGES; page++) {
      const { data, response } = await this.api.GET('/extended/v1/tx/mempool', {
        params: { query: { limit: 50, offset: results.length } },
      });
      const body = this.ok(response, data) as { results?: unknown; total?: unknown };
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
  async mempoolOf(principal: string): Promise<MempoolRead> {
    const found: Activity[] = [];
    for (let page = 0; page < MEMPOOL_PAGES; page++) {
      const { data, response } = await this.api.GET('/extended/v1/address/{principal}/mempool', {
        params: { path: { principal }, query: { limit: 50, offset: found.length } },
      });
      const { items, next } = decodeOffsetPage(this.ok(response, data), (field) => decodeMempoolV1(field, principal));
      found.push(...items);
      if (!next || items.length === 0) return { items: found, complete: true };
    }
    return { items: found, complete: false };
  }

  /**
   * Mined transactions' events, read in batches of 20 ids (`/extended/v1/tx/multiple`): every movement with both
   * parties, mints and burns. A transaction the node does not know is left out.
   */
  async details(txIds: readonly string[]): Promise<Map<string, TxDetail>> {
    const found = new Map<string, TxDetail>();
    for (const { txId, result } of await this.withEvents(txIds)) {
      if (!Array.isArray(result.at('events').value)) continue;
      found.set(txId, decodeEvents(result.at('events')));
    }
    return found;
  }

  /** Mined transactions with up to 50 events each, as the node knows them, in batches of 20 ids. */
  private async withEvents(txIds: readonly string[]): Promise<{ txId: string; result: ReturnType<typeof object> }[]> {
    const found: { txId: string; result: ReturnType<typeof object> }[] = [];
    for (let start = 0; start < txIds.length; start += DETAIL_BATCH) {
      const batch = txIds.slice(start, start + DETAIL_BATCH);
      const { data, response } = await this.api.GET('/extended/v1/tx/multiple', {
        params: { query: { tx_id: batch, event_limit: EVENT_LIMIT } },
      });
      const body = object(this.ok(response, data), '$');
      for (const txId of batch) {
        const entry = body.at(txId);
        if (entry.value === undefined) continue;
        const record = object(entry.value, entry.path);
        if (record.at('found').value !== true) continue;
        const result = object(record.at('result').value, `${entry.path}.result`);
        if (text(result.at('tx_id')) !== txId) continue;
        found.push({ txId, result });
      }
    }
    return found;
  }

  /** The canonical block at a height (`/extended/v2/blocks/{height}`); null when the node has none there. */
  async blockAt(height: number): Promise<ChainTip | null> {
    const { data, response } = await this.api.GET('/extended/v2/blocks/{height_or_hash}', {
      params: { path: { height_or_hash: height } },
    });
    if (response.status === 404) return null;
    return decodeBlock(this.ok(response, data));
  }

  /** A page of 50 of the node's mined transactions, newest first (`/extended/v1/tx`), without their events. */
  async recentTransactions(offset: number): Promise<Page<RecentTx> & { offset: number }> {
    // The path as every node version serves it (the client library types it with a trailing slash).
    const answer = await this.getOutsideClient('chain', `/extended/v1/tx?limit=${RECENT_PAGE_LIMIT}&offset=${offset}`);
    if (answer === null) throw new NodeError(`${this.node.name} does not list recent transactions`, 404);
    return decodeOffsetPage(answer, decodeRecentTx);
  }

  /**
   * Everyone the events of mined transactions name, in batches of 20 (`/extended/v1/tx/multiple`); a transaction
   * with more events than were sent is left out, as is one the node does not know: the caller cannot rule on it.
   */
  async eventParties(txIds: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    for (const { txId, result } of await this.withEvents(txIds)) {
      const events = result.at('events');
      const count = result.at('event_count').value;
      if (!Array.isArray(events.value) || typeof count !== 'number' || count > events.value.length) continue;
      found.set(txId, decodeEventParties(events));
    }
    return found;
  }

  /** One transaction as the node has it now (pending, mined or dropped), raw; null when the node does not know it. */
  async transaction(txId: string): Promise<unknown> {
    const { data, response } = await this.api.GET('/extended/v1/tx/{tx_id}', { params: { path: { tx_id: txId } } });
    if (response.status === 404) return null;
    return this.ok(response, data);
  }

  /** The BNS name an address owns (its first), null when none: `/v1/addresses/stacks/{address}`. */
  async bnsName(address: string): Promise<string | null> {
    const answer = await this.getOutsideClient('names', `/v1/addresses/stacks/${encodeURIComponent(address)}`);
    if (answer === null) return null;
    const names = object(answer, '$').at('names').value;
    if (!Array.isArray(names)) return null;
    const first: unknown = names[0];
    return typeof first === 'string' && /^[a-z0-9_.-]{1,64}$/.test(first) ? first : null;
  }

  /** A GET of a route the client library does not type (token metadata, BNS), paced; null on a 404. */
  private async getOutsideClient(purpose: Purpose, path: string): Promise<unknown> {
    const response = await this.scheduler.fetch((signal) =>
      sendRequest(purpose, `${this.node.url}${path}`, { signal, headers: this.keyHeader() }, this.fetchImpl),
    );
    if (response.status === 404) return null;
    return this.ok(response, await response.json());
  }

  /** The API key goes to this node only, in the header the public gateway reads. */
  private keyHeader(): Record<string, string> {
    return this.node.apiKey ? { 'x-api-key': this.node.apiKey } : {};
  }

  /**
   * Whether to try a v3 route: yes once the node is known to have them, no once known not to; while unknown, the
   * first caller probes and every other waits for its answer (one 404 per node, not one per address).
   */
  private async tryV3(): Promise<boolean> {
    while (this.v3 === null && this.probe) await this.probe.done;
    if (this.v3 === null) {
      let settle = () => {};
      const done = new Promise<void>((resolve) => (settle = resolve));
      this.probe = { done, settle };
    }
    return this.v3 !== false;
  }

  /**
   * Runs a v3 request; its answer tells whether the node has the v3 routes (a 404 means an older API; a 429 or a
   * server error tells nothing). The waiting callers are released once it told, or failed to.
   */
  private async probing<T extends { response: Response }>(request: () => Promise<T>): Promise<T> {
    try {
      const answer = await request();
      const status = answer.response.status;
      if (this.v3 === null && status !== 429 && status < 500) {
        this.v3 = status !== 404;
        this.options.onV3Learned?.(this.v3);
      }
      return answer;
    } finally {
      if (this.probe) this.endProbe();
    }
  }

  private endProbe(): void {
    const probe = this.probe;
    this.probe = null;
    probe?.settle();
  }

  /** Whether the node answered as an older API (its v3 routes 404). */
  private isOldNode(response: Response): boolean {
    return this.v3 === false && response.status === 404;
  }

  private ok(response: Response, data: unknown): unknown {
    if (!response.ok)
      throw new NodeError(
        `${this.node.name} answered ${response.status} for ${new URL(response.url || this.node.url).pathname}`,
        response.status,
      );
    return data;
  }

  /** Forgets one principal's ETags: what was read under them did not reach the snapshot (the sync failed). */
  forgetValidatorsOf(principal: string): void {
    this.etags.delete(principal);
  }

  private conditional(principal: string, page: string): Record<string, string> {
    const etag = this.etags.get(principal)?.get(page);
    return etag ? { 'if-none-match': etag } : {};
  }

  private remember(principal: string, page: string, response: Response): void {
    const etag = response.headers.get('etag');
    if (!etag) return;
    const pages = this.etags.get(principal);
    if (pages) pages.set(page, etag);
    else this.etags.set(principal, new Map([[page, etag]]));
  }
}

const isBrowser = 'document' in globalThis && !('process' in globalThis);

/**
 * A GET without the `Content-Type` the client library adds: with it, every request is "non-simple" and the
 * browser sends a CORS preflight first, doubling the requests a rate-limited gateway counts. In the browser the
 * HTTP cache revalidates with If-None-Match by itself (CORS hides the ETag from page code).
 */
function simpleGet(request: Request, signal: AbortSignal): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-type');
  return new Request(request.url, {
    method: request.method,
    headers,
    signal,
    ...(isBrowser ? { cache: 'no-cache' as const } : {}),
  });
}
