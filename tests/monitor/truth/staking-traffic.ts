import type { DevnetChain } from '../../../mocks/devnet/chain.ts';
import { signerManagerOf } from '../../../mocks/devnet/pox5-genesis.ts';
import { BOND_GAP_CYCLES, bondFirstCycle, cycleOf, cycleStart } from '../../../mocks/devnet/pox5.ts';
import { bondStartHeight, bondUnlockHeight } from '../../../mocks/devnet/staking-book.ts';
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

/**
 * A bond call, from a seed: a staker announces its running position's early exit (its BTC left on Bitcoin), a person
 * with nothing locked registers for a bond period not started yet (BTC locked on Bitcoin and STX beside it), or the
 * admin sets up the next bond period for the people. Null when none fits now.
 */
export function bondCall(chain: DevnetChain, random: SeededRandom): { sender: string; intent: Intent } | null {
  const book = chain.state.staking;
  const at = chain.tip.burnHeight + 1;
  const signer = signerManagerOf(chain.accounts);
  const running = [...book.bondPositions.values()].filter(
    (position) => position.type === 'l1' && !position.earlyExit && at < bondUnlockHeight({ index: position.bondIndex }),
  );
  if (running.length > 0 && random.chance(0.5)) {
    const position = random.pick(running);
    return {
      sender: position.staker,
      intent: { kind: 'pox5-early-exit', staker: position.staker, signer: position.signer },
    };
  }
  const open = [...book.bonds.values()].filter((bond) => at < bondStartHeight(bond));
  const free = chain.accounts.people.filter(
    (person) => (chain.state.stx.get(person.address)?.locked ?? 0n) === 0n && !book.bondPositions.has(person.address),
  );
  if (open.length > 0 && free.length > 0) {
    const txid = Array.from({ length: 64 }, () => random.int(0, 15).toString(16)).join('');
    return {
      sender: random.pick(free).address,
      intent: {
        kind: 'pox5-register-bond',
        index: random.pick(open).index,
        signer,
        ustx: BigInt(random.int(20_000, 30_000)) * STX,
        lockup: { type: 'l1', outputs: [{ txid, outputIndex: 0, sats: BigInt(random.int(1, 5)) * 10_000_000n }] },
      },
    };
  }
  // The next period that opens within two cycles and has not started (one every two cycles).
  let index = 0;
  while (cycleStart(bondFirstCycle(index)) <= at) index++;
  if (open.length > 0 || cycleStart(bondFirstCycle(index) - BOND_GAP_CYCLES) > at || book.bonds.has(index)) return null;
  return {
    sender: book.admin,
    intent: {
      kind: 'pox5-setup-bond',
      index,
      targetRateBps: 500,
      stxValueRatio: 100_000,
      minUstxRatio: 1000,
      admin: book.admin,
      allowlist: chain.accounts.people.map((person) => ({ staker: person.address, maxSats: 100_000_000n })),
    },
  };
}
