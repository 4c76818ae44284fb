import type { DevnetChain } from './chain.ts';
import { json, withEtag } from './http-kit.ts';
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

export const POX_ROUTES: readonly Route[] = [
  {
    method: 'GET',
    pattern: /^\/v2\/pox$/,
    handle: (request, _params, chain) => withEtag(request, json(200, poxInfo(chain)), chain.tip.indexHash),
  },
];
