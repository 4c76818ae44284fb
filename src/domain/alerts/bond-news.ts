import type { BondHolding } from '../state/staking.ts';

/**
 * What changed in a principal's bond positions between two reads, as staking alert subjects (see
 * staking-news.ts), one per bond and ending:
 *
 * - `bond-matured:<bond-index>` (phase unlocked) — the bond ran its term: its STX unlocked, a position that left
 *   early too (pox-5 keeps its STX locked to the bond's end)
 * - `bond-exited:<bond-index>` — the position left the bond early (an L1 early exit, or its sBTC taken back); its STX
 *   stay locked
 *
 * A position first read already ended is history. The amount is the bonded STX.
 */
export function bondNews(
  before: readonly BondHolding[],
  after: readonly BondHolding[],
): { subject: string; phase: 'locked' | 'unlocked'; amount: bigint }[] {
  const news: { subject: string; phase: 'locked' | 'unlocked'; amount: bigint }[] = [];
  for (const bond of after) {
    const was = before.find((candidate) => candidate.bondIndex === bond.bondIndex)?.status;
    if (was === undefined || was === 'unlocked') continue;
    if (bond.status === 'unlocked')
      news.push({ subject: `bond-matured:${bond.bondIndex}`, phase: 'unlocked', amount: bond.lockedUstx });
    else if (bond.status === 'early_exit' && was !== 'early_exit')
      news.push({ subject: `bond-exited:${bond.bondIndex}`, phase: 'locked', amount: bond.lockedUstx });
  }
  return news;
}
