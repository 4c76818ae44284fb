import type { DevnetChain } from '../../../mocks/devnet/chain.ts';
import { signerManagerOf } from '../../../mocks/devnet/pox5-genesis.ts';
import { cycleOf, cycleStart } from '../../../mocks/devnet/pox5.ts';
import type { SeededRandom } from '../../../mocks/devnet/random.ts';
import type { Intent } from '../../../mocks/devnet/transactions.ts';

const STX = 1_000_000n;

/**
 * PoX-5 traffic for one of the people, from a seed: a stake when it has none (one or two cycles, so that its
 * unlock lands within a run), else a stake-update, an unstake or a claim; sometimes a call pox-5 refuses (a claim
 * with nothing to claim or while rewards are paused, an unstake in the prepare phase), as a wallet may send.
 */
export function stakingIntent(chain: DevnetChain, random: SeededRandom, staker: string): Intent {
  const signer = signerManagerOf(chain.accounts);
  const burnHeight = chain.tip.burnHeight;
  const position = chain.state.staking.stx.get(staker);
  const staking = position !== undefined && position.unlockBurnHeight > burnHeight;
  const claimable = position ? position.accrued - position.claimed : 0n;
  const roll = random.next();
  // A staker with rewards waiting claims them often, as a wallet nudges it to.
  if (claimable > 0n && roll < 0.4) return { kind: 'pox5-claim', signer, rewardCycle: cycleOf(burnHeight + 1) - 1 };
  if (!staking && roll < 0.8)
    return {
      kind: 'pox5-stake',
      signer,
      amount: BigInt(random.int(1_000, 40_000)) * STX,
      cycles: random.int(1, 2),
      startBurnHeight: burnHeight + 1,
    };
  if (staking && roll < 0.35)
    return {
      kind: 'pox5-stake-update',
      signer,
      amountIncrease: random.chance(0.6) ? BigInt(random.int(100, 5_000)) * STX : 0n,
      cyclesToExtend: random.int(0, 1) || (random.chance(0.5) ? 1 : 0),
    };
  if (staking && roll < 0.55) return { kind: 'pox5-unstake', signer };
  return { kind: 'pox5-claim', signer, rewardCycle: cycleOf(burnHeight + 1) - 1 };
}

/** Mines to the start of the next reward cycle: rewards of the cycle that ended accrue, locks may end on the way. */
export function advanceCycle(chain: DevnetChain): void {
  const target = cycleStart(cycleOf(chain.tip.burnHeight) + 1);
  while (chain.tip.burnHeight < target) chain.mine();
}

/**
 * Rewards paused by the pause admin (a `pause-rewards` transaction), or resumed: pox-5 has no unpause, the devnet
 * switches it off in its current state as `/devnet/staking/resume` does.
 */
export async function togglePause(chain: DevnetChain): Promise<void> {
  const book = chain.state.staking;
  if (book.paused) book.paused = false;
  else await chain.submit(book.admin, { kind: 'pox5-pause-rewards' });
}
