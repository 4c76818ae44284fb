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
  // Each tick a whole number of steps, written with the step's decimals: no float noise, no two ticks alike.
  const decimals = Math.max(0, -Math.floor(Math.log10(step) + 1e-9));
  const at = (k: number) => Number((k * step).toFixed(decimals));
  const ticks: number[] = [];
  for (let k = Math.floor(min / step); ticks.length === 0 || ticks.at(-1)! < max; k++) ticks.push(at(k));
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
 * with the decimals it takes otherwise ("53,799,999.5" beside "53,800,000.0": a large balance that moved a little
 * must not read "53.8M" on every line). Worked out in whole micro-STX, exact up to the total supply.
 */
export function axisLabels(ticks: readonly number[]): string[] {
  const zeros = ticks.map(microZeros);
  const compactDigits = Math.max(
    0,
    ...ticks.map((tick, i) => 6 + Math.log10(COMPACT_UNITS.find((unit) => Math.abs(tick) >= unit) ?? 1) - zeros[i]!),
  );
  if (compactDigits <= 2) {
    const format = formatter('compact', compactDigits);
    return ticks.map((tick) => format.format(tick));
  }
  const format = formatter('standard', Math.max(0, ...zeros.map((zero) => 6 - zero)));
  return ticks.map((tick) => format.format(tick));
}

/** What a compact label counts in: trillions (T), billions (B), millions (M), thousands (K). */
const COMPACT_UNITS = [1e12, 1e9, 1e6, 1e3];

/** The trailing zeros of a tick in micro-STX (0 has as many as it takes): 6 or more, no decimals needed. */
function microZeros(tick: number): number {
  let micro = Math.abs(Math.round(tick * 1e6));
  if (micro === 0) return 18;
  let zeros = 0;
  while (micro % 10 === 0) {
    micro /= 10;
    zeros += 1;
  }
  return zeros;
}

const formats = new Map<string, Intl.NumberFormat>();
function formatter(notation: 'compact' | 'standard', digits: number): Intl.NumberFormat {
  const key = `${notation}:${digits}`;
  let format = formats.get(key);
  if (!format) {
    format =
      notation === 'compact'
        ? new Intl.NumberFormat('en-US', { notation, maximumFractionDigits: digits })
        : new Intl.NumberFormat('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
    formats.set(key, format);
  }
  return format;
}
