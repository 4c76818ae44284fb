import type { FungibleToken } from './assets.ts';
import { FIRST_BURN_HEIGHT } from './genesis.ts';
import { CYCLE_BURN_BLOCKS } from './ledger.ts';

/**
 * PoX-5 as the devnet runs it: the boot contract, the sBTC token its rewards are paid in, and the cycle arithmetic
 * of pox-5.clar (`burn-height-to-reward-cycle`, `reward-cycle-to-unlock-height`) on the devnet's short cycles.
 */
export const POX5_CONTRACT = 'ST000000000000000000002AMW42H.pox-5';

/** sBTC as deployed on testnet: the SIP-010 token staking rewards are paid in. */
const SBTC_CONTRACT = 'ST1F7QA2MDF17S807EPA36TSS8AMEFY4KA9TVGWXT.sbtc-token';
export const SBTC: FungibleToken = {
  assetIdentifier: `${SBTC_CONTRACT}::sbtc-token`,
  contractId: SBTC_CONTRACT,
  assetName: 'sbtc-token',
  name: 'sBTC',
  symbol: 'sBTC',
  decimals: 8,
  totalSupply: 0n,
};

/** The devnet's genesis block opens this cycle, as mainnet's first PoX-5 cycle was 141. */
export const FIRST_POX5_CYCLE = 141;
/** pox-5.clar: bonds last 12 cycles and a new bond period opens every 2. */
export const BOND_LENGTH_CYCLES = 12;
export const BOND_GAP_CYCLES = 2;
export const MAX_NUM_CYCLES = 96;
/** pox-5.clar's SIGNER_SET_MIN_USTX: a signer below it is not in the cycle's signer set. */
export const SIGNER_SET_MIN_USTX = 50_000_000_000n;
/** The last burn block of a cycle is its prepare phase (pox-5 refuses an unstake there). */
export const PREPARE_PHASE_BURN_BLOCKS = 1;
/** The rewards' fixed-point scale in pox-5.clar (PRECISION). */
export const PRECISION = 10n ** 18n;

export const cycleOf = (burnHeight: number): number =>
  FIRST_POX5_CYCLE + Math.floor((burnHeight - FIRST_BURN_HEIGHT) / CYCLE_BURN_BLOCKS);

export const cycleStart = (cycle: number): number => FIRST_BURN_HEIGHT + (cycle - FIRST_POX5_CYCLE) * CYCLE_BURN_BLOCKS;

/** pox-5.clar's `reward-cycle-to-unlock-height`: STX unlock halfway through the cycle they stop stacking in. */
export const unlockHeightOf = (cycle: number): number => cycleStart(cycle) + CYCLE_BURN_BLOCKS / 2;

export const isPreparePhase = (burnHeight: number): boolean =>
  burnHeight >= cycleStart(cycleOf(burnHeight) + 1) - PREPARE_PHASE_BURN_BLOCKS;

/** A bond period's first reward cycle (`bond-period-to-reward-cycle`). */
export const bondFirstCycle = (bondIndex: number): number => FIRST_POX5_CYCLE + bondIndex * BOND_GAP_CYCLES;
