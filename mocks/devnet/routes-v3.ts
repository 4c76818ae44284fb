import type { DevnetChain } from './chain.ts';
import {
  checkPrincipal,
  isResponse,
  json,
  notFound,
  readLimit,
  validationError,
  withEtag,
  type DevnetRequest,
  type DevnetResponse,
} from './http-kit.ts';
import { cursorPage, PagingError } from './paging.ts';
import { principalEtag } from './principal-etag.ts';
import type { Route } from './route.ts';
import { clarityUint } from './serialize-v1.ts';
import { balanceChanges, mempoolV3, noncesV3, stxBalanceV3, transactionV3, txCursor } from './serialize-v3.ts';

const MAX_BALANCE_CHANGE_TXS = 20;
/** The routes whose ETag counts the principal's pending transactions too (the API's `principal_mempool`). */
const MEMPOOL = { mempool: true };

/**
 * A v3 principal route: validated principal, the API's principal ETag (principal-etag.ts; `mempool` for the routes
 * whose ETag counts pending transactions) with If-None-Match → 304.
 */
function principalRoute(
  suffix: string,
  answer: (chain: DevnetChain, principal: string, request: DevnetRequest) => DevnetResponse,
  { mempool = false } = {},
): Route {
  return {
    method: 'GET',
    v3: true,
    pattern: new RegExp(`^/extended/v3/principals/([^/]+)/${suffix}$`),
    handle(request, [principal = ''], chain) {
      const invalid = checkPrincipal(principal);
      if (invalid) return invalid;
      try {
        return withEtag(request, answer(chain, principal, request), principalEtag(chain, principal, mempool));
      } catch (error) {
        if (error instanceof PagingError) return validationError(error.message);
        throw error;
      }
    },
  };
}

function paged<T, R>(
  request: DevnetRequest,
  items: readonly T[],
  cursorOf: (item: T) => string,
  render: (item: T) => R,
  limits: { fallback: number; max: number },
): DevnetResponse {
  const limit = readLimit(request.url, limits.fallback, limits.max);
  if (isResponse(limit)) return limit;
  return json(200, cursorPage(items, cursorOf, { limit, cursor: request.url.searchParams.get('cursor') }, render));
}

export const V3_ROUTES: readonly Route[] = [
  principalRoute('balances/stx', (chain, principal) => json(200, stxBalanceV3(chain, principal)), MEMPOOL),
  principalRoute('balances/ft', (chain, principal, request) => {
    const rows = [...(chain.state.ft.get(principal) ?? [])].sort(([a, x], [b, y]) =>
      x === y ? a.localeCompare(b) : x > y ? -1 : 1,
    );
    return paged(
      request,
      rows,
      ([asset, balance]) => `${balance}:${asset}`,
      ([asset_identifier, balance]) => ({ asset_identifier, balance: balance.toString() }),
      { fallback: 100, max: 200 },
    );
  }),
  principalRoute('balances/nft', (chain, principal, request) => {
    const owned = [...chain.state.nftOwners]
      .filter(([, owner]) => owner === principal)
      .map(([key]) => key.split('#') as [string, string])
      .sort(([a, x], [b, y]) => a.localeCompare(b) || Number(BigInt(x) - BigInt(y)));
    return paged(
      request,
      owned,
      ([asset, id]) => `u${id}:${asset}`,
      ([asset_identifier, id]) => ({ asset_identifier, value: clarityUint(BigInt(id)) }),
      { fallback: 100, max: 200 },
    );
  }),
  principalRoute('transactions', (chain, principal, request) =>
    paged(request, chain.transactionsOf(principal), txCursor, (entry) => transactionV3(entry, principal), {
      fallback: 20,
      max: 50,
    }),
  ),
  principalRoute('balance-changes', (chain, principal, request) => {
    const ids = request.url.searchParams
      .getAll('tx_id')
      .flatMap((value) => value.split(','))
      .filter(Boolean);
    if (ids.length === 0) return validationError("querystring must have required property 'tx_id'");
    if (ids.length > MAX_BALANCE_CHANGE_TXS)
      return validationError(`querystring/tx_id must NOT have more than ${MAX_BALANCE_CHANGE_TXS} items`);
    const rows = ids.flatMap((id) => {
      const entry = chain.tx(id);
      return entry ? balanceChanges(entry, principal) : [];
    });
    return paged(
      request,
      rows,
      (row) => `${row.tx_id}:${'identifier' in row.asset ? row.asset.identifier : 'stx'}`,
      (row) => row,
      {
        fallback: 20,
        max: 50,
      },
    );
  }),
  principalRoute(
    'mempool/transactions',
    (chain, principal, request) => {
      const pending = chain.pendingOf(principal).sort((a, b) => b.receiptTime - a.receiptTime);
      return paged(request, pending, (entry) => `${entry.receiptTime}:${entry.signed.txId}`, mempoolV3, {
        fallback: 20,
        max: 50,
      });
    },
    MEMPOOL,
  ),
  principalRoute('nonces', (chain, principal) => json(200, noncesV3(chain, principal)), MEMPOOL),
  {
    // API 9.0.2 `get_block_transactions`: a canonical block's transaction summaries, highest tx_index first, cursor
    // `height:microblock_sequence:tx_index`, 20 a page by default and at most 50; 404 for a block it does not have.
    method: 'GET',
    v3: true,
    pattern: /^\/extended\/v3\/blocks\/([^/]+)\/transactions$/,
    handle(request, [heightOrHash = ''], chain) {
      const block = /^\d+$/.test(heightOrHash)
        ? chain.block(Number(heightOrHash))
        : chain.blockByHash(heightOrHash.toLowerCase().replace(/^(?!0x)/, '0x'));
      if (!block) return notFound('Block not found');
      const entries = block.txIds.flatMap((id) => chain.tx(id) ?? []).reverse();
      try {
        return withEtag(
          request,
          paged(request, entries, txCursor, (entry) => transactionV3(entry, '').transaction, { fallback: 20, max: 50 }),
          block.indexHash,
        );
      } catch (error) {
        if (error instanceof PagingError) return validationError(error.message);
        throw error;
      }
    },
  },
];
