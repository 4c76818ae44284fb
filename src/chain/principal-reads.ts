import type { Activity, AssetChange, StxBalance } from '../domain/state/snapshot.ts';
import { decodeTransactionV3, decodeWithTransfers } from './decode-activity.ts';
import {
  decodeBalanceChanges,
  decodeBalancesV1,
  decodeCursorPage,
  decodeFtBalances,
  decodeNftCounts,
  decodeOffsetPage,
  decodeStxV1,
  decodeStxV3,
  type Page,
} from './decode.ts';
import { BURN_HEIGHT_DRIVEN, type NodeRest } from './node-rest.ts';
import type { PageValidators } from './page-validators.ts';
import type { V3Routes } from './v3-routes.ts';

export const UNCHANGED = 'unchanged' as const;
export const TX_PAGE_LIMIT = 20;

/**
 * What one principal's reads go through: the node, what it serves (each read tries the v3 route and falls back to
 * the v1/v2 route of an older node), and the ETags of the history pages read.
 */
export interface PrincipalRoutes {
  readonly rest: NodeRest;
  readonly v3: V3Routes;
  readonly validators: PageValidators;
}

/**
 * The STX balance, with its lock: v3 `balances/stx`, or v1 `stx` on an older node. Never from the HTTP cache: a lock
 * ends at its burn height with no transaction, and the node's ETag does not tell a pox-5 lock's end.
 */
export async function readStxBalance({ rest, v3 }: PrincipalRoutes, principal: string): Promise<StxBalance> {
  if (await v3.worthTrying()) {
    const { data, response } = await v3.probing(() =>
      rest.api.GET('/extended/v3/principals/{principal}/balances/stx', {
        params: { path: { principal } },
        ...BURN_HEIGHT_DRIVEN,
      }),
    );
    if (!v3.isOldNode(response)) return decodeStxV3(rest.ok(response, data));
  }
  const { data, response } = await rest.api.GET('/extended/v1/address/{principal}/stx', {
    params: { path: { principal } },
    ...BURN_HEIGHT_DRIVEN,
  });
  return decodeStxV1(rest.ok(response, data));
}

/**
 * A page of mined transactions, newest first. Sends the ETag it holds for the same page, so that an unchanged
 * history costs a 304 where the node's ETag is readable.
 */
export async function readTransactions(
  { rest, v3, validators }: PrincipalRoutes,
  principal: string,
  cursor: string | null,
  signal?: AbortSignal,
): Promise<Page<Activity> | typeof UNCHANGED> {
  if (await v3.worthTrying()) {
    const page = `v3:${cursor ?? ''}`;
    const { data, response } = await v3.probing(() =>
      rest.api.GET('/extended/v3/principals/{principal}/transactions', {
        params: { path: { principal }, query: { limit: TX_PAGE_LIMIT, ...(cursor ? { cursor } : {}) } },
        headers: validators.conditional(principal, page),
        signal,
      }),
    );
    if (!v3.isOldNode(response)) {
      if (response.status === 304) return UNCHANGED;
      const decoded = decodeCursorPage(rest.ok(response, data), (field) => decodeTransactionV3(field, principal));
      validators.remember(principal, page, response);
      return decoded;
    }
  }
  const offset = Number(cursor ?? 0);
  const { data, response } = await rest.api.GET('/extended/v1/address/{principal}/transactions_with_transfers', {
    params: { path: { principal }, query: { limit: TX_PAGE_LIMIT, offset } },
    signal,
  });
  return decodeOffsetPage(rest.ok(response, data), (field) => decodeWithTransfers(field, principal));
}

/** Tokens and NFT counts: v3 `balances/ft` and `balances/nft`, or v1 `balances` on an older node. */
export async function readHoldings(
  { rest, v3 }: PrincipalRoutes,
  principal: string,
): Promise<{ tokens: Map<string, bigint>; nfts: Map<string, number> }> {
  if (await v3.worthTrying()) {
    const path = { path: { principal } };
    const ft = await v3.probing(() =>
      rest.api.GET('/extended/v3/principals/{principal}/balances/ft', { params: { ...path, query: { limit: 200 } } }),
    );
    if (!v3.isOldNode(ft.response)) {
      const nft = await rest.api.GET('/extended/v3/principals/{principal}/balances/nft', {
        params: { ...path, query: { limit: 200 } },
      });
      return {
        tokens: decodeFtBalances(rest.ok(ft.response, ft.data)),
        nfts: decodeNftCounts(rest.ok(nft.response, nft.data)),
      };
    }
  }
  const { data, response } = await rest.api.GET('/extended/v1/address/{principal}/balances', {
    params: { path: { principal } },
  });
  return decodeBalancesV1(rest.ok(response, data));
}

/** Token and NFT movements of up to 20 transactions (v3 only: an older node has no such route). */
export async function readBalanceChanges(
  { rest, v3 }: PrincipalRoutes,
  principal: string,
  txIds: readonly string[],
): Promise<Map<string, AssetChange[]>> {
  if (txIds.length === 0 || !(await v3.worthTrying())) return new Map();
  const { data, response } = await v3.probing(() =>
    rest.api.GET('/extended/v3/principals/{principal}/balance-changes', {
      params: { path: { principal }, query: { tx_id: txIds.slice(0, 20), limit: 50 } },
    }),
  );
  if (v3.isOldNode(response)) return new Map();
  return decodeBalanceChanges(rest.ok(response, data));
}
