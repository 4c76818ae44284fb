import { parsePrincipal } from '../../src/domain/address/address.ts';
import { describeAddressError } from '../../src/domain/address/address-messages.ts';
import { ChainError, MAX_REORG_DEPTH, type DevnetChain, type DropStatus } from './chain.ts';
import type { FaultInjector, Faults, MalformedKind } from './faults.ts';
import { json, type DevnetRequest, type DevnetResponse } from './http-kit.ts';
import { STAKING_ACTIONS, stakingStatus } from './control-staking.ts';
import type { ChainLife } from './life.ts';
import { SBTC } from './pox5.ts';
import type { Intent } from './transactions.ts';

/** The devnet's own control API under /devnet/ (not part of the Stacks API): what tests and demos drive. */
export interface ControlContext {
  readonly chain: DevnetChain;
  readonly life: ChainLife;
  readonly faults: FaultInjector;
  disconnectAll(): void;
  /** The whole node unreachable (REST and realtime) for this long; 0 ends an outage. */
  outage(ms: number): number;
}

class BadRequest extends Error {}

const MAX_U64 = 2n ** 64n - 1n;
const DROP_STATUSES: readonly DropStatus[] = [
  'dropped_replace_by_fee',
  'dropped_replace_across_fork',
  'dropped_too_expensive',
  'dropped_stale_garbage_collect',
  'dropped_problematic',
];

type Body = Record<string, unknown>;

function readBody(request: DevnetRequest): Body {
  if (!request.body) return {};
  let data: unknown;
  try {
    data = JSON.parse(request.body);
  } catch {
    throw new BadRequest('the body is not valid JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new BadRequest('the body must be a JSON object');
  return data as Body;
}

function principal(body: Body, field: string): string {
  const value = body[field];
  if (typeof value !== 'string') throw new BadRequest(`“${field}” must be a Stacks address (text)`);
  const parsed = parsePrincipal(value, { network: 'testnet' });
  if (!parsed.ok) throw new BadRequest(`“${field}”: ${describeAddressError(parsed.error)}`);
  return parsed.value.principal;
}

function amount(body: Body, field: string): bigint {
  const value = body[field];
  if (typeof value !== 'string' || !/^\d+$/.test(value)) {
    throw new BadRequest(`“${field}” must be a whole number of base units as a string, for example "1000000"`);
  }
  const parsed = BigInt(value);
  if (parsed === 0n || parsed > MAX_U64) throw new BadRequest(`“${field}” must be between 1 and ${MAX_U64}`);
  return parsed;
}

/** An NFT is named by its number, not an amount: the error says so. */
function nftId(body: Body): bigint {
  const value = body['id'];
  if (typeof value !== 'string' || !/^\d+$/.test(value) || BigInt(value) > MAX_U64)
    throw new BadRequest(`“id” must be the NFT's number as a string of digits (0 to ${MAX_U64}), for example "1"`);
  return BigInt(value);
}

function memo(body: Body): string {
  const value = body['memo'] ?? '';
  if (typeof value !== 'string') throw new BadRequest('“memo” must be text');
  if (Buffer.byteLength(value, 'utf8') > 34) throw new BadRequest('“memo” must be at most 34 bytes');
  return value;
}

function optionalInteger(body: Body, field: string, min: number, max: number): number | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new BadRequest(`“${field}” must be a whole number from ${min} to ${max}`);
  }
  return value;
}

async function submit(
  context: ControlContext,
  sender: string,
  intent: Intent,
  sponsor?: string,
): Promise<DevnetResponse> {
  const entry = await context.chain.submit(sender, intent, undefined, sponsor === undefined ? {} : { sponsor });
  return json(200, { tx_id: entry.signed.txId });
}

function readFaults(body: Body, current: Faults): Faults {
  const next = structuredClone(current);
  if ('rateLimit' in body) {
    const value = body['rateLimit'];
    if (value === null) next.rateLimit = null;
    else {
      const limit = value as Body;
      const rate = limit?.['rate'];
      const retryAfter = limit?.['retryAfterSeconds'] ?? 1;
      if (typeof rate !== 'number' || rate < 0 || rate > 1)
        throw new BadRequest('“rateLimit.rate” must be a number from 0 to 1');
      if (typeof retryAfter !== 'number' || !Number.isInteger(retryAfter) || retryAfter < 0 || retryAfter > 3600) {
        throw new BadRequest('“rateLimit.retryAfterSeconds” must be a whole number from 0 to 3600');
      }
      next.rateLimit = { rate, retryAfterSeconds: retryAfter };
    }
  }
  if ('budgetPerMinute' in body) {
    const budget = body['budgetPerMinute'];
    if (budget !== null && (typeof budget !== 'number' || !Number.isInteger(budget) || budget < 1)) {
      throw new BadRequest('“budgetPerMinute” must be a whole number of requests, or null for no budget');
    }
    next.budgetPerMinute = budget as number | null;
  }
  const latency = optionalInteger(body, 'latencyMs', 0, 60_000);
  if (latency !== undefined) next.latencyMs = latency;
  const feedLag = optionalInteger(body, 'feedLagMs', 0, 60_000);
  if (feedLag !== undefined) next.feedLagMs = feedLag;
  if ('malformed' in body) {
    const rules = body['malformed'];
    if (!Array.isArray(rules)) throw new BadRequest('“malformed” must be a list of { pathPrefix, kind }');
    next.malformed = rules.map((rule: Body) => {
      const kind = rule?.['kind'] ?? 'truncated';
      if (typeof rule?.['pathPrefix'] !== 'string' || !String(rule['pathPrefix']).startsWith('/')) {
        throw new BadRequest('each “malformed” rule needs a “pathPrefix” starting with /');
      }
      if (kind !== 'truncated' && kind !== 'wrong-types')
        throw new BadRequest('“kind” must be "truncated" or "wrong-types"');
      return { pathPrefix: rule['pathPrefix'] as string, kind: kind as MalformedKind };
    });
  }
  if ('oldNode' in body) {
    if (typeof body['oldNode'] !== 'boolean') throw new BadRequest('“oldNode” must be true or false');
    next.oldNode = body['oldNode'];
  }
  return next;
}

const CONTRACT_NAME = /^[a-zA-Z][a-zA-Z0-9_-]{0,39}$/;

const ACTIONS: Record<string, (context: ControlContext, body: Body) => DevnetResponse | Promise<DevnetResponse>> = {
  'POST /devnet/transfer': (context, body) =>
    submit(
      context,
      principal(body, 'sender'),
      {
        kind: 'stx',
        recipient: principal(body, 'recipient'),
        amount: amount(body, 'amount'),
        memo: memo(body),
      },
      // A sponsored transfer: this account pays the fee.
      body['sponsor'] === undefined ? undefined : principal(body, 'sponsor'),
    ),
  'POST /devnet/ft-transfer': (context, body) => {
    const asset = body['asset'];
    const token = [...context.chain.assets.tokens, SBTC].find(
      (candidate) => candidate.assetIdentifier === asset || candidate.symbol === asset,
    );
    if (!token) {
      const known = [...context.chain.assets.tokens, SBTC].map((candidate) => candidate.symbol).join(', ');
      throw new BadRequest(`“asset” must be a devnet token's asset identifier or symbol (${known})`);
    }
    return submit(context, principal(body, 'sender'), {
      kind: 'ft',
      token,
      recipient: principal(body, 'recipient'),
      amount: amount(body, 'amount'),
      memo: memo(body),
    });
  },
  'POST /devnet/token': (context, body) => {
    const deployer = principal(body, 'deployer');
    const contract = body['contract'];
    if (typeof contract !== 'string' || !CONTRACT_NAME.test(contract))
      throw new BadRequest('“contract” must be a contract name: a letter, then up to 39 letters, digits, - or _');
    const free = (key: string): string => {
      const value = body[key];
      if (typeof value !== 'string' || value.length === 0 || value.length > 200)
        throw new BadRequest(`“${key}” must be text of 1 to 200 characters (anything: it is the token author's)`);
      return value;
    };
    const decimals = optionalInteger(body, 'decimals', 0, 18) ?? 6;
    const token = context.chain.deployToken(deployer, {
      contract,
      name: free('name'),
      symbol: free('symbol'),
      decimals,
    });
    return submit(context, deployer, {
      kind: 'ft-mint',
      token,
      recipient: principal(body, 'recipient'),
      amount: amount(body, 'amount'),
    });
  },
  'POST /devnet/name': (context, body) => {
    const name = body['name'];
    if (typeof name !== 'string' || name.length === 0 || name.length > 200)
      throw new BadRequest('“name” must be text of 1 to 200 characters (a node may send anything; the app judges it)');
    context.chain.names.set(name.toLowerCase(), principal(body, 'owner'));
    return json(200, { name, owner: body['owner'] });
  },
  'POST /devnet/vault': (context, body) => {
    const action = body['action'];
    if (action !== 'deposit' && action !== 'withdraw')
      throw new BadRequest('“action” must be "deposit" or "withdraw" (a call of the demo vault contract)');
    const vault = context.chain.accounts.vault.address;
    const intent: Intent =
      action === 'deposit'
        ? { kind: 'vault-deposit', vault, amount: amount(body, 'amount') }
        : { kind: 'vault-withdraw', vault, amount: amount(body, 'amount') };
    return submit(context, principal(body, 'sender'), intent);
  },
  'POST /devnet/nft-transfer': (context, body) =>
    submit(context, principal(body, 'sender'), {
      kind: 'nft',
      collection: context.chain.assets.nft,
      recipient: principal(body, 'recipient'),
      id: nftId(body),
    }),
  'POST /devnet/mine': (context, body) => {
    const count = optionalInteger(body, 'count', 1, 100) ?? 1;
    for (let i = 0; i < count; i++) context.chain.mine();
    return json(200, { height: context.chain.tip.height });
  },
  'POST /devnet/auto': (context, body) => {
    const blockMs = body['blockMs'];
    if (
      blockMs !== null &&
      (typeof blockMs !== 'number' || !Number.isInteger(blockMs) || blockMs < 50 || blockMs > 600_000)
    ) {
      throw new BadRequest(
        '“blockMs” must be a whole number of milliseconds from 50 to 600000, or null to pause mining',
      );
    }
    context.life.setBlockMs(blockMs);
    return json(200, { blockMs });
  },
  'POST /devnet/faults': (context, body) => {
    context.faults.faults = readFaults(body, context.faults.faults);
    if (body['disconnect'] === true) context.disconnectAll();
    return json(200, context.faults.faults);
  },
  'POST /devnet/reorg': (context, body) => {
    const depth = optionalInteger(body, 'depth', 1, MAX_REORG_DEPTH);
    if (depth === undefined) throw new BadRequest(`“depth” is required: a whole number from 1 to ${MAX_REORG_DEPTH}`);
    const { orphaned, tip } = context.chain.reorg(depth);
    return json(200, { orphaned: orphaned.map((block) => block.hash), height: tip.height });
  },
  'POST /devnet/outage': (context, body) => {
    const ms = optionalInteger(body, 'ms', 0, 600_000);
    if (ms === undefined)
      throw new BadRequest('“ms” is required: how long the node stays unreachable, 0 to 600000 milliseconds');
    return json(200, { downUntil: context.outage(ms) });
  },
  'POST /devnet/drop': (context, body) => {
    const txId = body['tx_id'];
    const status = body['status'] ?? 'dropped_stale_garbage_collect';
    if (typeof txId !== 'string') throw new BadRequest('“tx_id” must be a transaction id');
    if (!DROP_STATUSES.includes(status as DropStatus))
      throw new BadRequest(`“status” must be one of ${DROP_STATUSES.join(', ')}`);
    if (status === 'dropped_replace_by_fee') {
      return context.chain
        .replaceByFee(txId)
        .then((replacement) => json(200, { tx_id: txId, replaced_by: replacement.signed.txId }));
    }
    context.chain.drop(txId, status as DropStatus);
    return json(200, { tx_id: txId, status });
  },
};

export async function handleControl(context: ControlContext, request: DevnetRequest): Promise<DevnetResponse> {
  const { pathname } = request.url;
  if (request.method === 'GET' && pathname === '/devnet/accounts') {
    return json(
      200,
      context.chain.accounts.all.map(({ address, label, kind }) => ({ address, label, kind })),
    );
  }
  if (request.method === 'GET' && pathname === '/devnet/staking') return stakingStatus(context.chain);
  const staking = STAKING_ACTIONS[`${request.method} ${pathname}`];
  const action =
    ACTIONS[`${request.method} ${pathname}`] ??
    (staking && ((inner: ControlContext, body: Body) => staking(inner.chain, body)));
  if (!action)
    return json(404, {
      error: `no control action ${request.method} ${pathname}; see GET /devnet/accounts and the README`,
    });
  try {
    return await action(context, readBody(request));
  } catch (error) {
    if (error instanceof BadRequest || error instanceof ChainError) return json(400, { error: error.message });
    throw error;
  }
}
