import { formatStx } from '../amount.ts';
import { formatSbtc } from '../state/staking.ts';

/** Bitcoin's target pace: an estimate of when a burn height comes, never a promise. */
const MINUTES_PER_BURN_BLOCK = 10;

const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

function roughly(blocks: number): string {
  const minutes = blocks * MINUTES_PER_BURN_BLOCK;
  if (minutes < 60) return `about ${plural(minutes, 'minute')}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `about ${plural(hours, 'hour')}`;
  return `about ${plural(Math.round(hours / 24), 'day')}`;
}

const cycleWords = (cycle: string | undefined): string => (cycle ? `cycle ${cycle}` : 'the next cycle');

/**
 * The words of a staking alert, from its subject (see staking-news.ts) and amount: "Staked 60,000.00 STX · from
 * cycle 142", "Unstake scheduled: 60,000.00 STX unlock at cycle 145, in about 6 days", "Unlocked 60,000.00 STX",
 * "sBTC rewards claimable: 0.00120000 sBTC", "Staking rewards paused", "Bond 1 matured: 20,000.00 STX unlocked". Null
 * for a subject that is
 * not staking's.
 */
export function stakingTitle(subject: string, amount: bigint): string | null {
  const [kind, ...parts] = subject.split(':');
  switch (kind) {
    case 'stake':
      return `Staked ${formatStx(amount)}${parts[0] ? ` · from cycle ${parts[0]}` : ''}`;
    case 'stake-update':
      return `Stake updated: ${formatStx(amount)}${parts[0] ? ` · until cycle ${parts[0]}` : ''}`;
    case 'unstake': {
      const [cycle, unlockHeight, lockHeight] = parts;
      const blocks = Number(unlockHeight) - Number(lockHeight);
      const when = lockHeight && Number.isSafeInteger(blocks) && blocks > 0 ? `, in ${roughly(blocks)}` : '';
      return `Unstake scheduled: ${formatStx(amount)} unlock at ${cycleWords(cycle)}${when}`;
    }
    case 'unlock':
      return `Unlocked ${formatStx(amount)}`;
    case 'claimable':
      return `sBTC rewards claimable: ${formatSbtc(amount)}`;
    case 'rewards-paused':
      return amount > 0n
        ? `Staking rewards paused: ${formatSbtc(amount)} claimable cannot be claimed`
        : 'Staking rewards paused';
    case 'bond-matured':
      return `Bond ${parts[0] ?? ''} matured: ${formatStx(amount)} unlocked`;
    case 'bond-exited':
      return `Bond ${parts[0] ?? ''} exited early: ${formatStx(amount)} bonded`;
    default:
      return null;
  }
}
