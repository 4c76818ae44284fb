import { grouped } from '../amount.ts';

/** Bitcoin's target pace: the estimate of when a block comes, never a promise. */
const MINUTES_PER_BITCOIN_BLOCK = 10;

const plural = (count: number, unit: string): string => `${count} ${unit}${count === 1 ? '' : 's'}`;

/** "about 40 minutes", "about 3 hours", "about 2 days": the nearest round figure a person would say. */
function roughly(minutes: number): string {
  if (minutes < 60) return `about ${plural(minutes, 'minute')}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `about ${plural(hours, 'hour')}`;
  return `about ${plural(Math.round(hours / 24), 'day')}`;
}

/**
 * When locked (stacked) STX can be spent again, in a person's words with the exact Bitcoin block beside them:
 * "unlocks in about 3 hours (Bitcoin block 238)". A stacking lock ends at a Bitcoin block height; the time to it
 * is estimated from the current Bitcoin height when known.
 */
export function unlockText(unlockBurnHeight: number | null, tipBurnHeight: number | null): string {
  if (unlockBurnHeight === null) return 'locked for stacking';
  const block = `Bitcoin block ${grouped(BigInt(unlockBurnHeight))}`;
  if (tipBurnHeight === null) return `unlocks at ${block}`;
  const blocks = unlockBurnHeight - tipBurnHeight;
  if (blocks <= 0) return `unlocking now (${block} is here)`;
  return `unlocks in ${roughly(blocks * MINUTES_PER_BITCOIN_BLOCK)} (${block})`;
}
