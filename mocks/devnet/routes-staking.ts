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
import type { Route } from './route.ts';
import { txCursor } from './serialize-v3.ts';
import {
  bondDetail,
  bondPosition,
  bondSummary,
  currentCycleSigners,
  registration,
  registrationSummary,
  signerStakers,
  stakingSigner,
  stakingSignerDetail,
  stakingSummary,
} from './serialize-staking.ts';

/** Limits of the API's resource types: transactions (bonds use them) and signers. */
const TX_LIMITS = { fallback: 20, max: 50 };
const SIGNER_LIMITS = { fallback: 100, max: 250 };
const STAKER_LIMITS = { fallback: 100, max: 200 };

type Answer = (request: DevnetRequest, params: readonly string[], chain: DevnetChain) => DevnetResponse;

/**
 * A v3 staking route: its parameters checked as the API's schemas do, and the chain tip's index block hash as
 * its ETag (the API's `handleChainTipCache`), so that a new block is what makes a client fetch again.
 */
function stakingRoute(path: string, answer: Answer): Route {
  const pattern = new RegExp(`^/extended/v3/${path.replaceAll(/:[a-z_]+/g, '([^/]+)')}$`);
  const names = [...path.matchAll(/:([a-z_]+)/g)].map((match) => match[1]);
  return {
    method: 'GET',
    v3: true,
    pattern,
    handle(request, params, chain) {
      for (const [i, name] of names.entries()) {
        const value = params[i] ?? '';
        if (name === 'principal') {
          const invalid = checkPrincipal(value);
          if (invalid) return invalid;
        }
        if (name === 'bond_index' && !/^\d+$/.test(value)) return validationError('params/bond_index must be integer');
        if (name === 'cycle_number' && value !== 'current')
          return validationError('params/cycle_number must be equal to constant');
      }
      try {
        return withEtag(request, answer(request, params, chain), chain.tip.indexHash);
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

const bonds = (chain: DevnetChain) => [...chain.state.staking.bonds.values()].sort((a, b) => a.index - b.index);
/** The API pages allowlists and registrations by their transaction (`height:microblock:index`), newest first. */
const cursorOfTx = (chain: DevnetChain, txId: string) => {
  const entry = chain.tx(txId);
  return entry ? txCursor(entry) : '';
};
const positions = (chain: DevnetChain, bondIndex: number) =>
  [...chain.state.staking.bondPositions.values()]
    .filter((p) => p.bondIndex === bondIndex)
    .sort((a, b) => b.enrollment.height - a.enrollment.height || a.staker.localeCompare(b.staker));
const bondOf = (chain: DevnetChain, index: string) => chain.state.staking.bonds.get(Number(index));

export const STAKING_ROUTES: readonly Route[] = [
  stakingRoute('principals/:principal/staking', (_request, [principal = ''], chain) =>
    json(200, stakingSummary(chain, principal)),
  ),
  stakingRoute('principals/:principal/staking/bonds', (request, [principal = ''], chain) => {
    const mine = [...chain.state.staking.bondPositions.values()].filter((p) => p.staker === principal);
    return paged(
      request,
      mine,
      (p) => String(p.bondIndex),
      (p) => bondPosition(p),
      TX_LIMITS,
    );
  }),
  stakingRoute('staking/bonds', (request, _params, chain) =>
    paged(
      request,
      bonds(chain),
      (bond) => String(bond.index),
      (bond) => bondSummary(chain, bond),
      TX_LIMITS,
    ),
  ),
  stakingRoute('staking/bonds/:bond_index', (_request, [index = ''], chain) => {
    const bond = bondOf(chain, index);
    return bond ? json(200, bondDetail(chain, bond)) : notFound('Bond not found');
  }),
  stakingRoute('staking/bonds/:bond_index/allowlist', (request, [index = ''], chain) => {
    const bond = bondOf(chain, index);
    const entries = [...(bond?.allowlist ?? [])];
    return paged(
      request,
      entries,
      () => cursorOfTx(chain, bond?.created.txId ?? ''),
      ([staker, maxSats]) => ({ staker, max_sats: maxSats.toString() }),
      TX_LIMITS,
    );
  }),
  stakingRoute('staking/bonds/:bond_index/allowlist/:principal', (_request, [index = '', principal = ''], chain) => {
    const maxSats = bondOf(chain, index)?.allowlist.get(principal);
    return maxSats === undefined
      ? notFound('Bond allowlist entry not found')
      : json(200, { staker: principal, max_sats: maxSats.toString() });
  }),
  stakingRoute('staking/bonds/:bond_index/registrations', (request, [index = ''], chain) =>
    paged(
      request,
      positions(chain, Number(index)),
      (p) => cursorOfTx(chain, p.enrollment.txId),
      registrationSummary,
      TX_LIMITS,
    ),
  ),
  stakingRoute(
    'staking/bonds/:bond_index/registrations/:principal',
    (_request, [index = '', principal = ''], chain) => {
      const position = positions(chain, Number(index)).find((p) => p.staker === principal);
      return position ? json(200, registration(position)) : notFound('Bond registration not found');
    },
  ),
  stakingRoute('staking/cycles/:cycle_number/signers', (request, _params, chain) =>
    paged(
      request,
      currentCycleSigners(chain),
      (s) => s.signing_key,
      (s) => s,
      SIGNER_LIMITS,
    ),
  ),
  stakingRoute('staking/signers', (request, _params, chain) => {
    const all = [...chain.state.staking.signers.values()].sort((a, b) => a.signer.localeCompare(b.signer));
    return paged(request, all, (s) => s.signer, stakingSigner, SIGNER_LIMITS);
  }),
  stakingRoute('staking/signers/:principal', (_request, [principal = ''], chain) => {
    const record = chain.state.staking.signers.get(principal);
    return record ? json(200, stakingSignerDetail(chain, record)) : notFound('Staking signer not found');
  }),
  stakingRoute('staking/signers/:principal/stakers', (request, [principal = ''], chain) =>
    paged(
      request,
      signerStakers(chain, principal),
      (s) => s.staker,
      (s) => s,
      STAKER_LIMITS,
    ),
  ),
];
