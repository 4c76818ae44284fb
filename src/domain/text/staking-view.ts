import { formatStx, grouped } from '../amount.ts';
import type { Activity } from '../state/snapshot.ts';
import {
  cycleAt,
  formatSbtc,
  hasStaking,
  totalRewards,
  type BondHolding,
  type StakingPosition,
} from '../state/staking.ts';
import { poxCall } from '../state/pox-call.ts';
import { unlockText } from './unlock-text.ts';

/** What the address page's staking card shows, as text: the lines of one position, decided here, drawn by React. */
export interface StakingView {
  /** "60,000.00 STX" staked, and until when: "until cycle 145 · unlocks in about 6 days (Bitcoin block 2,345)". */
  readonly staked: { readonly amount: string; readonly until: string } | null;
  /** "Unstake scheduled: lands at cycle 144; 60,000.00 STX unlock then" while an unstake waits for its cycle. */
  readonly unstake: string | null;
  readonly rewards: { readonly accrued: string; readonly claimed: string; readonly claimable: string };
  /** Said when pox-5's pause admin stopped claims: rewards go on accruing, a claim is refused. */
  readonly paused: string | null;
  readonly bonds: readonly { readonly name: string; readonly status: string; readonly held: string }[];
}

const BOND_STATUS: Record<BondHolding['status'], string> = {
  enrolled: 'enrolled, opens at its first cycle',
  running: 'running',
  early_exit: 'exited early',
  unlocked: 'matured, unlocked',
  rolled_over: 'moved to a new position',
};

const isPox5 = (activity: Activity) => activity.status === 'success' && poxCall(activity.contractCall)?.version === 5;

/** The newest pox-5 call the address made, when its history still holds one. */
const lastPox5Call = (recent: readonly Activity[]): string | null =>
  recent.find((activity) => isPox5(activity))?.contractCall?.functionName ?? null;

export function stakingView(
  position: StakingPosition | null | undefined,
  recent: readonly Activity[],
  tipBurnHeight: number | null,
): StakingView | null {
  if (!hasStaking(position)) return null;
  const { clock, unlockBurnHeight } = position;
  const unlockCycle = clock && unlockBurnHeight !== null ? cycleAt(clock, unlockBurnHeight) : null;
  // From the chain's height now, as the balance card counts the same lock: never from the height this was read at,
  // which, while the node cannot be reached, may be hours old ("unlocks in about 3 hours" of a lock already over).
  const when = unlockText(unlockBurnHeight, tipBurnHeight);
  // The balance's lock is the STX position's (staked, or unstaked and not yet at its unlock height): the API never
  // puts a bond's STX into it, the bond's line says those.
  const locked = position.locked > 0n ? position.locked : position.staked;
  const staked =
    locked > 0n
      ? { amount: formatStx(locked), until: unlockCycle === null ? when : `until cycle ${unlockCycle} · ${when}` }
      : null;
  const unstake =
    locked > 0n && lastPox5Call(recent) === 'unstake'
      ? `Unstake scheduled: ${formatStx(locked)} unlock ${unlockCycle === null ? 'at the next cycle' : `in cycle ${unlockCycle}`}`
      : null;
  const total = totalRewards(position);
  return {
    staked,
    unstake,
    rewards: {
      accrued: formatSbtc(total.accrued),
      claimed: formatSbtc(total.claimed),
      claimable: formatSbtc(total.claimable),
    },
    paused: position.rewardsPaused
      ? 'Rewards paused on the chain: they go on adding up, but a claim is refused until the pause ends'
      : null,
    bonds: position.bonds.map((bond) => {
      const amounts = `${formatSbtc(bond.lockedSats).replace('sBTC', 'BTC')} and ${formatStx(bond.lockedUstx)}`;
      return {
        name: `Bond ${grouped(BigInt(bond.bondIndex))}`,
        status: BOND_STATUS[bond.status],
        held: bondHeld(bond, amounts),
      };
    }),
  };
}

/**
 * What a bond position holds, in words. A matured one still names what it locked (the API's `locked`): those amounts
 * are what it released, and "locked" would read as money still stuck. One that left early took its BTC out, but its
 * STX stay locked to the bond's end (pox-5), and "released" would read as money free to spend.
 */
function bondHeld(bond: BondHolding, amounts: string): string {
  if (bond.status === 'unlocked') return `${amounts} released`;
  if (bond.status === 'rolled_over') return 'nothing held any more';
  if (bond.status === 'early_exit') return `${formatStx(bond.lockedUstx)} still locked until the bond ends`;
  return `${amounts} locked`;
}
