import { createClient } from '@stacks/blockchain-api-client';
import type { Purpose } from '../domain/privacy/disclosure.ts';
import type { NodeConfig } from './networks.ts';
import { platformFetch, sendRequest } from './outbound.ts';
import type { HostScheduler } from './scheduler.ts';

/** A node's answer the app cannot use, with its HTTP status (what the words for the user are chosen by). */
export class NodeError extends Error {
  constructor(
    message: string,
    readonly status: number | null,
  ) {
    super(message);
  }
}

/** The client library's typed routes of one node. */
export type NodeApi = ReturnType<typeof createClient>;

/**
 * One node's REST transport: every request paced by the host's scheduler, sent through `outbound.ts` (so that the
 * privacy record hears of it) and carrying the node's API key; answers checked before they are decoded.
 */
export class NodeRest {
  readonly api: NodeApi;

  constructor(
    readonly node: NodeConfig,
    private readonly scheduler: HostScheduler,
    private readonly fetchImpl: typeof fetch = platformFetch,
  ) {
    this.api = createClient({
      baseUrl: node.url,
      headers: this.keyHeader(),
      fetch: (request: Request) =>
        scheduler.fetch(
          (signal) => sendRequest('chain', simpleGet(request, signal), undefined, fetchImpl),
          // The caller's own signal (a route given `signal`): cancelled, the request leaves the host's queue at once.
          request.signal,
        ),
    });
  }

  /** The body of a successful answer; any other status throws, naming the node, the status and the path. */
  ok(response: Response, data: unknown): unknown {
    if (!response.ok)
      throw new NodeError(
        `${this.node.name} answered ${response.status} for ${new URL(response.url || this.node.url).pathname}`,
        response.status,
      );
    return data;
  }

  /** A GET of a route the client library does not type (token metadata, BNS, the recent list), paced; null on a 404. */
  async getUntyped(purpose: Purpose, path: string): Promise<unknown> {
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
}

const isBrowser = 'document' in globalThis && !('process' in globalThis);

/**
 * A GET without the `Content-Type` the client library adds: with it, every request is "non-simple" and the
 * browser sends a CORS preflight first, doubling the requests a rate-limited gateway counts. In the browser the
 * HTTP cache revalidates with If-None-Match by itself (CORS hides the ETag from page code), except for a read asked
 * with `cache: 'no-store'` (see BURN_HEIGHT_DRIVEN).
 */
function simpleGet(request: Request, signal: AbortSignal): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-type');
  return new Request(request.url, {
    method: request.method,
    headers,
    signal,
    ...(isBrowser ? { cache: request.cache === 'no-store' ? ('no-store' as const) : ('no-cache' as const) } : {}),
  });
}

/**
 * For a read whose answer can change with the burn height alone, with no transaction of the principal: a lock that
 * ends at its unlock height. The API's principal ETag hashes the newest transaction and a lock state read from pox-4
 * events only (v9.0.2), so a revalidated copy comes back "not modified" with the lock that ended still in it. Such a
 * read skips the HTTP cache.
 */
export const BURN_HEIGHT_DRIVEN = { cache: 'no-store' } as const;
