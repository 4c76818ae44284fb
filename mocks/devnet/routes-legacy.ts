import type { DevnetChain, TxEntry } from './chain.ts';
import {
  API_VERSION,
  checkPrincipal,
  deprecated,
  isResponse,
  json,
  notFound,
  readLimit,
  readOffset,
  validationError,
  withEtag,
  type DevnetRequest,
  type DevnetResponse,
} from './http-kit.ts';
import type { Route } from './route.ts';
import { POX_CONTRACT } from './transactions.ts';
import { SBTC } from './pox5.ts';
import { blockV2, mempoolTransaction, stxBalance, transaction, withTransfers } from './serialize-v1.ts';
import { noncesV3, stxBalanceV3 } from './serialize-v3.ts';

const TX_ID = /^(0x)?[a-fA-F0-9]{64}$/;
/** The API's paging limits for a transaction's events (`ResourceType.Event`). */
export const EVENT_LIMIT = { fallback: 20, max: 100 } as const;

/**
 * The v1/v2 address routes an older node offers. Most are deprecated and say so with a `Warning: 299` header; the
 * real API 8.x leaves `nonces`, `mempool` and the v2 route unmarked.
 */
function addressRoute(
  path: RegExp,
  answer: (chain: DevnetChain, principal: string, request: DevnetRequest) => DevnetResponse,
  options = { deprecated: true },
): Route {
  return {
    method: 'GET',
    pattern: path,
    handle(request, [principal = ''], chain) {
      const response = checkPrincipal(principal) ?? withEtag(request, answer(chain, principal, request));
      return options.deprecated ? deprecated(response) : response;
    },
  };
}

function offsetPage<T>(request: DevnetRequest, items: readonly T[], render: (item: T) => unknown): DevnetResponse {
  const limit = readLimit(request.url, 20, 50);
  if (isResponse(limit)) return limit;
  const offset = readOffset(request.url);
  if (isResponse(offset)) return offset;
  return json(200, { limit, offset, total: items.length, results: items.slice(offset, offset + limit).map(render) });
}

/** The burn time of the block before a mined transaction's block, which the v1 shape repeats. */
const parentTime = (chain: DevnetChain, entry: TxEntry): number =>
  entry.state.kind === 'confirmed' ? (chain.block(entry.state.block.height - 1)?.time ?? 0) : 0;

/** A transaction as `/extended/v1/tx/{id}` (with events) or a `transaction:` topic (without) shows it. */
export const txJson = (chain: DevnetChain, entry: TxEntry, options = { withEvents: true }) =>
  entry.state.kind === 'confirmed' ? transaction(entry, parentTime(chain, entry), options) : mempoolTransaction(entry);

function v1StxBalance(chain: DevnetChain, principal: string) {
  const v3 = stxBalanceV3(chain, principal);
  return {
    ...stxBalance(chain.state, principal),
    estimated_balance: v3.mempool?.estimated_balance ?? v3.available,
    pending_balance_inbound: v3.mempool?.inbound ?? '0',
    pending_balance_outbound: v3.mempool?.outbound ?? '0',
  };
}

function assetTotals(chain: DevnetChain, principal: string) {
  const fungible: Record<string, { balance: string; total_sent: string; total_received: string }> = {};
  for (const [asset, balance] of chain.state.ft.get(principal) ?? []) {
    fungible[asset] = { balance: balance.toString(), total_sent: '0', total_received: '0' };
  }
  const counts: Record<string, { count: string; total_sent: string; total_received: string }> = {};
  for (const [key, owner] of chain.state.nftOwners) {
    if (owner !== principal) continue;
    const asset = key.split('#')[0] ?? key;
    const count = BigInt(counts[asset]?.count ?? '0') + 1n;
    counts[asset] = { count: count.toString(), total_sent: '0', total_received: '0' };
  }
  return { fungible_tokens: fungible, non_fungible_tokens: counts };
}

export const LEGACY_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: /^\/extended\/?$/,
    handle(request, _params, chain) {
      const tip = chain.tip;
      const status = json(200, {
        server_version: `stacks-blockchain-api ${API_VERSION}`,
        status: 'ready',
        pox_v1_unlock_height: 1,
        pox_v2_unlock_height: 2,
        pox_v3_unlock_height: 3,
        chain_tip: {
          block_height: tip.height,
          block_hash: tip.hash,
          index_block_hash: tip.indexHash,
          burn_block_height: tip.burnHeight,
        },
      });
      return withEtag(request, status, tip.indexHash);
    },
  },
  addressRoute(/^\/extended\/v1\/address\/([^/]+)\/stx$/, (chain, principal) =>
    json(200, v1StxBalance(chain, principal)),
  ),
  addressRoute(/^\/extended\/v1\/address\/([^/]+)\/balances$/, (chain, principal) =>
    json(200, { stx: v1StxBalance(chain, principal), ...assetTotals(chain, principal) }),
  ),
  addressRoute(/^\/extended\/v1\/address\/([^/]+)\/transactions_with_transfers$/, (chain, principal, request) =>
    offsetPage(request, chain.transactionsOf(principal), (entry) => ({
      ...withTransfers(entry, principal, parentTime(chain, entry)),
      ft_transfers: [],
      nft_transfers: [],
    })),
  ),
  addressRoute(
    /^\/extended\/v1\/address\/([^/]+)\/mempool$/,
    (chain, principal, request) => offsetPage(request, newestFirst(chain.pendingOf(principal)), mempoolTransaction),
    { deprecated: false },
  ),
  addressRoute(
    /^\/extended\/v1\/address\/([^/]+)\/nonces$/,
    (chain, principal) => {
      const nonces = noncesV3(chain, principal);
      return json(200, {
        last_mempool_tx_nonce: nonces.mempool.last_nonce,
        last_executed_tx_nonce: nonces.last_confirmed_nonce,
        possible_next_nonce: nonces.next_nonce,
        detected_missing_nonces: nonces.mempool.missing_nonces,
        detected_mempool_nonces: nonces.mempool.pending_nonces,
      });
    },
    { deprecated: false },
  ),
  addressRoute(
    /^\/extended\/v2\/addresses\/([^/]+)\/transactions$/,
    (chain, principal, request) =>
      offsetPage(request, chain.transactionsOf(principal), (entry) => {
        const { tx, stx_sent, stx_received } = withTransfers(entry, principal, parentTime(chain, entry));
        const zero = { transfer: 0, mint: 0, burn: 0 };
        return { tx, stx_sent, stx_received, events: { stx: zero, ft: zero, nft: zero } };
      }),
    { deprecated: false },
  ),
  {
    // Deprecated in favour of v3 since 8.x, still served: newest first, without events (their count only).
    method: 'GET',
    pattern: /^\/extended\/v1\/tx\/?$/,
    handle: (request, _params, chain) =>
      withEtag(
        request,
        offsetPage(request, chain.minedNewestFirst(), (entry) => txJson(chain, entry, { withEvents: false })),
        chain.tip.indexHash,
      ),
  },
  {
    // The newest blocks of the canonical chain, at most 30 a page as the API serves them.
    method: 'GET',
    pattern: /^\/extended\/v2\/blocks$/,
    handle(request, _params, chain) {
      const limit = readLimit(request.url, 20, 30);
      if (isResponse(limit)) return limit;
      const offset = readOffset(request.url);
      if (isResponse(offset)) return offset;
      const tip = chain.tip.height;
      const heights = Array.from({ length: Math.max(0, Math.min(limit, tip - offset)) }, (_, i) => tip - offset - i);
      const results = heights.flatMap((height) => {
        const record = chain.block(height);
        return record ? [blockV2(record)] : [];
      });
      // The cursors the API pages with (this devnet reads `offset` only): the page's newest block, the next older
      // page's, the next newer page's (none from the tip).
      const hashAt = (height: number) => chain.block(height)?.indexHash ?? null;
      const page = {
        limit,
        offset,
        total: tip,
        next_cursor: offset > 0 ? hashAt(tip - offset + limit) : null,
        prev_cursor: hashAt(tip - offset - limit),
        cursor: hashAt(tip - offset),
        results,
      };
      return withEtag(request, json(200, page), chain.tip.indexHash);
    },
  },
  {
    method: 'GET',
    pattern: /^\/extended\/v2\/blocks\/([^/]+)$/,
    handle(_request, [heightOrHash = ''], chain) {
      const record = /^\d+$/.test(heightOrHash)
        ? chain.block(Number(heightOrHash))
        : chain.blockByHash(heightOrHash.toLowerCase());
      return record ? json(200, blockV2(record)) : notFound('cannot find block by height or hash');
    },
  },
  {
    method: 'GET',
    pattern: /^\/extended\/v1\/tx\/mempool$/,
    handle: (request, _params, chain) => offsetPage(request, newestFirst(chain.pending()), mempoolTransaction),
  },
  {
    // API 9.0.2 (`get_tx_list_details`): tx ids repeated or comma-separated, no cap on how many; each mined one with
    // `event_limit` of its events (default 20, at most 100) from `event_offset`; a pending one in its mempool shape.
    method: 'GET',
    pattern: /^\/extended\/v1\/tx\/multiple$/,
    handle(request, _params, chain) {
      const ids = request.url.searchParams
        .getAll('tx_id')
        .flatMap((value) => value.split(','))
        .filter(Boolean);
      if (ids.length === 0) return validationError("querystring must have required property 'tx_id'");
      const bad = ids.findIndex((id) => !TX_ID.test(id));
      if (bad >= 0) return validationError(`querystring/tx_id/${bad} must match pattern "^(0x)?[a-fA-F0-9]{64}$"`);
      const asked = readLimit(request.url, EVENT_LIMIT.fallback, EVENT_LIMIT.max, 'event_limit');
      if (isResponse(asked)) return asked;
      // The API's getPagingQueryLimit takes 0 for "not given": the default, not an empty page.
      const limit = asked === 0 ? EVENT_LIMIT.fallback : asked;
      const offset = readOffset(request.url, 'event_offset');
      if (isResponse(offset)) return offset;
      const answer: Record<string, unknown> = {};
      for (const id of ids) {
        const entry = chain.tx(id);
        if (!entry) {
          answer[id] = { found: false, result: { tx_id: id } };
          continue;
        }
        const tx = txJson(chain, entry) as { tx_id: string; events?: unknown[] };
        answer[tx.tx_id] = {
          found: true,
          result: tx.events ? { ...tx, events: tx.events.slice(offset, offset + limit) } : tx,
        };
      }
      return withEtag(request, json(200, answer));
    },
  },
  {
    method: 'GET',
    pattern: /^\/extended\/v1\/tx\/([^/]+)$/,
    handle(request, [txId = ''], chain) {
      if (!TX_ID.test(txId)) return validationError('params/tx_id must match pattern "^(0x)?[a-fA-F0-9]{64}$"');
      const entry = chain.tx(txId);
      return entry ? withEtag(request, json(200, txJson(chain, entry))) : notFound('could not find transaction by ID');
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/names\/([^/]+)$/,
    handle(_request, [name = ''], chain) {
      const owner = chain.names.get(name.toLowerCase());
      if (!owner) return json(404, { error: `cannot find name ${name}` });
      return json(200, {
        address: owner,
        blockchain: 'stacks',
        expire_block: 0,
        last_txid: `0x${'0'.repeat(64)}`,
        status: 'name-register',
        zonefile: '',
        zonefile_hash: '',
      });
    },
  },
  {
    method: 'GET',
    pattern: /^\/v1\/addresses\/([^/]+)\/([^/]+)$/,
    handle(_request, [blockchain = '', address = ''], chain) {
      if (blockchain !== 'stacks') return json(400, { error: 'Unsupported blockchain' });
      return json(200, { names: [...chain.names].filter(([, owner]) => owner === address).map(([name]) => name) });
    },
  },
  {
    // The real API answers 404 for a contract principal where nothing was deployed (API 9, `contract` routes).
    method: 'GET',
    pattern: /^\/extended\/v1\/contract\/([^/]+)$/,
    handle(_request, [contractId = ''], chain) {
      const deployed = [
        chain.accounts.vault.address,
        chain.assets.nft.contractId,
        POX_CONTRACT,
        ...chain.assets.tokens.map((token) => token.contractId),
      ];
      if (!deployed.includes(contractId)) return json(404, { error: 'cannot find contract by ID' });
      return json(200, {
        tx_id: `0x${'0'.repeat(64)}`,
        canonical: true,
        contract_id: contractId,
        block_height: 1,
        clarity_version: 2,
        source_code: '',
        abi: null,
      });
    },
  },
  {
    method: 'GET',
    pattern: /^\/metadata\/v1\/ft\/([^/]+)$/,
    handle(_request, [contractId = ''], chain) {
      const token = [...chain.assets.tokens, SBTC].find((candidate) => candidate.contractId === contractId);
      if (!token) return json(404, { error: 'Token not found' });
      return json(200, {
        name: token.name,
        symbol: token.symbol,
        decimals: token.decimals,
        total_supply: token.totalSupply.toString(),
        token_uri: null,
        description: `${token.name}, a token of the Stacks Watch devnet`,
        image_uri: null,
        tx_id: `0x${'0'.repeat(64)}`,
        sender_address: contractId.split('.')[0],
        asset_identifier: token.assetIdentifier,
      });
    },
  },
];

/** The node lists its mempool newest first (by the time it received each transaction). */
function newestFirst(entries: readonly TxEntry[]): TxEntry[] {
  return [...entries].sort((a, b) => b.receiptTime - a.receiptTime);
}
