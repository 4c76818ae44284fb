import { poxCall } from '../state/pox-call.ts';
import type { Activity } from '../state/snapshot.ts';
import { cycleAt, totalRewards, type StakingPosition } from '../state/staking.ts';
import { bondNews } from './bond-news.ts';

/**
 * What changed in a principal's staking between two reads, as alert subjects: each names its facts (cycles, burn
 * heights, totals) so that the words can be built from the subject and the amount alone, on the device that shows
 * them, and so that the same change read twice is the same subject (told once).
 *
 * - `stake:<from-cycle>:<unlock-cycle>:<unlock-height>` — STX staked where none were
 * - `stake-update:<unlock-cycle>:<lock-height>` — more staked, or the lock extended
 * - `unstake:<unlock-cycle>:<unlock-height>:<lock-height>` — the lock now ends sooner: an unstake
 * - `unlock:<unlock-height>` (phase unlocked) — the lock ended at its burn height
 * - `claimable:<claimed-total>` — claimable sBTC reached the threshold while claims are not paused (once per claim
 *   round)
 * - `rewards-paused` — pox-5's pause admin stopped claims: told once, to a principal known to stake while they were
 *   not paused (pox-5 has no unpause; the amount is the sBTC left claimable)
 * - `bond-matured:<index>`, `bond-exited:<index>` — a bond position ended (bond-news.ts)
 *
 * A claim is a transaction of the address: its own alert says "Claimed 0.00120000 sBTC" (effect-text.ts).
 */
/** pox-5's calls that set a principal's STX position: what they did, the staking read tells (`stake…`, `unstake…`). */
const POSITION_CALLS: ReadonlySet<string> = new Set(['stake', 'stake-update', 'unstake']);

/**
 * The principal's own call that sets its pox-5 position: a staking alert tells what it did, with its amount and
 * cycles, so that the call's own pending and confirmed states need no notification ("Called pox-5.stake" and then
 * "Staked 60,000.00 STX · from cycle 142" would tell one act twice). A failure, a drop or a revert is told as ever.
 */
export function isPositionCall(activity: Activity): boolean {
  const call = poxCall(activity.contractCall);
  return (
    call?.version === 5 &&
    POSITION_CALLS.has(call.functionName) &&
    (activity.status === 'pending' || activity.status === 'success')
  );
}

/** The rules' minimums key of the "sBTC rewards claimable" threshold, in satoshis (none: any claimable amount). */
export const SBTC_CLAIMABLE_MINIMUM = 'staking:sbtc-claimable';

export interface StakingNews {
  readonly subject: string;
  readonly phase: 'locked' | 'unlocked';
  readonly amount: bigint;
}

export function stakingNews(
  before: StakingPosition,
  after: StakingPosition,
  burnHeight: number | null,
  claimableAtLeast: bigint,
): StakingNews[] {
  const news: StakingNews[] = [];
  const clock = after.clock ?? before.clock;
  const cycleOf = (height: number | null) => (clock && height !== null ? cycleAt(clock, height) : null);
  const unlockCycle = cycleOf(after.unlockBurnHeight);
  // The lock read before ended and a new one was set since (no read met the STX free between): a new stake.
  const restaked =
    before.locked > 0n &&
    before.unlockBurnHeight !== null &&
    after.lockBurnHeight !== null &&
    after.lockBurnHeight >= before.unlockBurnHeight;
  if (after.staked > 0n && (before.staked === 0n || restaked)) {
    const lockCycle = cycleOf(after.lockBurnHeight);
    news.push({
      subject: `stake:${lockCycle === null ? '' : lockCycle + 1}:${unlockCycle ?? ''}:${after.unlockBurnHeight ?? ''}`,
      phase: 'locked',
      amount: after.staked,
    });
  } else if (after.staked > 0n && before.staked > 0n && after.unlockBurnHeight !== null) {
    const wasUntil = before.unlockBurnHeight ?? after.unlockBurnHeight;
    if (after.staked > before.staked || after.unlockBurnHeight > wasUntil)
      news.push({
        subject: `stake-update:${unlockCycle ?? ''}:${after.lockBurnHeight ?? ''}`,
        phase: 'locked',
        amount: after.staked,
      });
    else if (after.unlockBurnHeight < wasUntil)
      news.push({
        subject: `unstake:${unlockCycle ?? ''}:${after.unlockBurnHeight}:${after.lockBurnHeight ?? ''}`,
        phase: 'locked',
        amount: after.staked,
      });
  }
  if ((after.locked === 0n || restaked) && before.locked > 0n) {
    // Gone before its unlock height is a re-org taking the stake back, not an unlock.
    const until = before.unlockBurnHeight;
    if (until !== null && burnHeight !== null && burnHeight >= until)
      news.push({ subject: `unlock:${until}`, phase: 'unlocked', amount: before.locked });
  }
  const was = totalRewards(before);
  const now = totalRewards(after);
  const floor = claimableAtLeast > 0n ? claimableAtLeast : 1n;
  // Rewards that cannot be claimed (paused) are not "claimable": the pause alert says what is waiting.
  const claimable = after.rewardsPaused !== true && now.claimable >= floor;
  const wasClaimable = before.rewardsPaused !== true && was.claimable >= floor && now.claimed === was.claimed;
  if (claimable && !wasClaimable)
    news.push({ subject: `claimable:${now.claimed}`, phase: 'locked', amount: now.claimable });
  if (after.rewardsPaused === true && before.rewardsPaused === false)
    news.push({ subject: 'rewards-paused', phase: 'locked', amount: now.claimable });
  const bonds = bondNews(before.bonds, after.bonds);
  // A bond's STX unlock as it matures: "Bond 1 matured: … unlocked" says it, not a second "Unlocked …".
  const matured = bonds.some((item) => item.subject.startsWith('bond-matured:'));
  return [...news.filter((item) => !(matured && item.subject.startsWith('unlock:'))), ...bonds];
}
