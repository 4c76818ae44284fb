import type { BalancePoint } from './balance-history.ts';

export type ChartPeriod = '7d' | '30d' | 'all';
export const CHART_PERIODS: readonly (readonly [ChartPeriod, string])[] = [
  ['7d', '7 days'],
  ['30d', '30 days'],
  ['all', 'All known'],
];
const PERIOD_SECONDS: Record<Exclude<ChartPeriod, 'all'>, number> = { '7d': 7 * 86_400, '30d': 30 * 86_400 };

/**
 * The points inside a period, oldest first, starting with the balance held when the period began (carried from the
 * last point before it) so the line covers the whole period rather than starting at its first transaction.
 */
export function pointsInPeriod(
  points: readonly BalancePoint[],
  period: ChartPeriod,
  nowSeconds: number,
): BalancePoint[] {
  if (period === 'all' || points.length === 0) return [...points];
  const start = nowSeconds - PERIOD_SECONDS[period];
  const inside = points.filter((point) => point.time >= start);
  const before = points.filter((point) => point.time < start).at(-1);
  return before ? [{ time: start, balance: before.balance }, ...inside] : inside;
}

/**
 * About `count` round values covering [min, max] (1, 2 or 5 times a power of ten apart), for a value axis. The
 * axis starts at a tick at or below the minimum and ends at one at or above the maximum.
 */
export function niceTicks(min: number, max: number, count = 4): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) {
    const pad = Math.abs(min) * 0.1 || 1;
    return niceTicks(min - pad, max + pad, count);
  }
  const raw = (max - min) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? raw;
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let value = first; value < max + step / 2; value += step) ticks.push(Number(value.toPrecision(12)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.at(-1)! + step).toPrecision(12)));
  return ticks;
}

/** The index of the point nearest in time to `time` (for a tooltip under a pointer), or -1 with no points. */
export function nearestPoint(points: readonly BalancePoint[], time: number): number {
  let best = -1;
  let distance = Infinity;
  points.forEach((point, index) => {
    const gap = Math.abs(point.time - time);
    if (gap < distance) [best, distance] = [index, gap];
  });
  return best;
}

/** Micro-STX to STX as a float: for placing a point on a chart only, never for showing an amount. */
export const stxForChart = (microStx: bigint): number => Number(microStx) / 1e6;

/** A value axis label: "1.2M", "350K", "12.5", "0". */
const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 2 });
export function axisLabel(stx: number): string {
  return COMPACT.format(stx);
}
