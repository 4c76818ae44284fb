import type { Activity } from './snapshot.ts';

export interface BalancePoint {
  /** Unix seconds. */
  readonly time: number;
  readonly balance: bigint;
}

/**
 * The STX balance after each known transaction, oldest first, ending at today's balance: walked back from the
 * current total through each mined transaction's net change. Failed transactions still cost their fee.
 */
export function balanceHistory(total: bigint, recent: readonly Activity[], now: number): BalancePoint[] {
  const points: BalancePoint[] = [{ time: now, balance: total }];
  let balance = total;
  for (const activity of recent) {
    if (activity.blockHeight === null) continue;
    points.push({ time: activity.time, balance });
    balance -= activity.stxNet;
  }
  if (points.length > 1) points.push({ time: points.at(-1)!.time - 1, balance });
  return points.reverse();
}
