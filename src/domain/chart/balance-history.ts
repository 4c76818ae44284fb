import type { Activity } from '../state/snapshot.ts';

export interface BalancePoint {
  /** Unix seconds. */
  readonly time: number;
  readonly balance: bigint;
}

/**
 * The STX balance after each known transaction, oldest first, ending at today's balance: walked back from the
 * current total through each mined transaction's net change. Failed transactions still cost their fee. Times never
 * go backwards along the line (block times and the device clock need not agree): a point is never later than the
 * one after it, and today's is never earlier than the newest block's.
 */
export function balanceHistory(total: bigint, recent: readonly Activity[], now: number): BalancePoint[] {
  const mined = recent.filter((activity) => activity.blockHeight !== null);
  let later = Math.max(now, ...mined.map((activity) => activity.time));
  const points: BalancePoint[] = [{ time: later, balance: total }];
  let balance = total;
  for (const activity of mined) {
    later = Math.min(activity.time, later);
    points.push({ time: later, balance });
    balance -= activity.stxNet;
  }
  if (points.length > 1) points.push({ time: points.at(-1)!.time - 1, balance });
  return points.reverse();
}
