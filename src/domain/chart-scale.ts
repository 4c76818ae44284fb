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
export function niceTicks(min: number, max: number, count = 4, minStep = 0): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) {
    const pad = Math.abs(min) * 0.1 || 1;
    return niceTicks(min - pad, max + pad, count, minStep);
  }
  const raw = (max - min) / Math.max(1, count - 1);
  const power = 10 ** Math.floor(Math.log10(raw));
  const nice = [1, 2, 5, 10].map((factor) => factor * power).find((candidate) => candidate >= raw) ?? raw;
  const step = Math.max(nice, minStep);
  const first = Math.floor(min / step) * step;
  const ticks: number[] = [];
  for (let value = first; value < max + step / 2; value += step) ticks.push(Number(value.toPrecision(15)));
  if (ticks.at(-1)! < max) ticks.push(Number((ticks.at(-1)! + step).toPrecision(15)));
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

/** The smallest amount of STX (one micro-STX): no axis steps finer than that. */
export const STX_STEP = 1e-6;

/**
 * The value axis' labels, each the tick's value: compact where that is exact ("1.25M", "350K", "12.5"), in full
 * with the decimals it takes otherwise ("53,799,999.5" beside "53,800,000": a large balance that moved a little must
 * not read "53.8M" on every line).
 */
export function axisLabels(ticks: readonly number[]): string[] {
  const compactDigits = Math.max(0, ...ticks.map((tick) => decimalsOf(tick / compactUnit(Math.abs(tick)))));
  if (compactDigits <= 2) return ticks.map((tick) => compact(compactDigits).format(tick));
  const digits = Math.min(6, Math.max(0, ...ticks.map(decimalsOf)));
  return ticks.map((tick) => full(digits).format(tick));
}

/** What a compact label counts in: thousands (K), millions (M), billions (B), trillions (T). */
const compactUnit = (value: number): number => [1e12, 1e9, 1e6, 1e3].find((unit) => value >= unit) ?? 1;

/** How many decimals a tick has, up to the 6 that STX has (ticks are round: 15 significant digits say it all). */
function decimalsOf(value: number): number {
  const [, decimals = ''] = Number(value.toPrecision(15)).toFixed(7).replace(/0+$/, '').split('.');
  return Math.min(6, decimals.length);
}

const compact = (digits: number) =>
  new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: digits });
const full = (digits: number) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
