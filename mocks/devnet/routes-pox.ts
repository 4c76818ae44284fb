import type { DevnetChain } from './chain.ts';
import { BASE_HEADERS, json, withEtag } from './http-kit.ts';
import { CYCLE_BURN_BLOCKS } from './ledger.ts';
import { POX5_CONTRACT, PREPARE_PHASE_BURN_BLOCKS, cycleOf, cycleStart } from './pox5.ts';
import type { Route } from './route.ts';

/**
 * The core node's `/v2/pox` (the API proxies it): the fields a client needs for cycle arithmetic, in the node's
 * shape (stacks-core's RPCPoxInfoData). The devnet's cycles are short, and numbered from 141 as mainnet's PoX-5 ones.
 */
function poxInfo(chain: DevnetChain) {
  const burnHeight = chain.tip.burnHeight;
  const cycle = cycleOf(burnHeight);
  const nextStart = cycleStart(cycle + 1);
  const prepareStart = nextStart - PREPARE_PHASE_BURN_BLOCKS;
  const book = chain.state.staking;
  const stacked = [...book.stx.keys()].reduce((sum, staker) => sum + book.lockedStx(staker, burnHeight), 0n);
  return {
    contract_id: POX5_CONTRACT,
    first_burnchain_block_height: cycleStart(cycle) - cycle * CYCLE_BURN_BLOCKS,
    current_burnchain_block_height: burnHeight,
    prepare_phase_block_length: PREPARE_PHASE_BURN_BLOCKS,
    reward_phase_block_length: CYCLE_BURN_BLOCKS - PREPARE_PHASE_BURN_BLOCKS,
    reward_cycle_length: CYCLE_BURN_BLOCKS,
    current_cycle: { id: cycle, min_threshold_ustx: 0, stacked_ustx: Number(stacked), is_pox_active: true },
    next_cycle: {
      id: cycle + 1,
      min_threshold_ustx: 0,
      stacked_ustx: Number(stacked),
      prepare_phase_start_block_height: prepareStart,
      blocks_until_prepare_phase: Math.max(0, prepareStart - burnHeight),
      reward_phase_start_block_height: nextStart,
      blocks_until_reward_phase: nextStart - burnHeight,
    },
  };
}

/** Clarity's consensus serialization of a bool, as the node's `/v2/data_var` hands it out. */
const CLARITY_TRUE = '0x03';
const CLARITY_FALSE = '0x04';

/**
 * The core node's `/v2/data_var/{address}/{contract}/{var}` (the API proxies it) for the one variable of pox-5 a
 * client reads: `rewards-paused`, set for good by the pause admin's `pause-rewards`. Any other variable answers as the
 * node does for one it does not know: 404, in plain text.
 */
function dataVar(chain: DevnetChain, contract: string, name: string) {
  if (contract !== POX5_CONTRACT || name !== 'rewards-paused')
    return { status: 404, headers: { ...BASE_HEADERS, 'content-type': 'text/plain' }, body: 'Data var not found' };
  return json(200, { data: chain.state.staking.paused ? CLARITY_TRUE : CLARITY_FALSE });
}

export const POX_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: /^\/v2\/pox$/,
    handle: (request, _params, chain) => withEtag(request, json(200, poxInfo(chain)), chain.tip.indexHash),
  },
  {
    method: 'GET',
    pattern: /^\/v2\/data_var\/([^/]+)\/([^/]+)\/([^/]+)$/,
    handle: (request, [address, contract, name], chain) =>
      withEtag(request, dataVar(chain, `${address}.${contract}`, name ?? ''), chain.tip.indexHash),
  },
];
