/** Amounts are bigint base units end to end; these turn them into text only at the edge. */
export const STX_DECIMALS = 6;

const INTEGER = /^-?\d+$/;

/** Parses an integer string from the API into bigint; anything else is null (never a float). */
export function parseAmount(value: unknown): bigint | null {
  return typeof value === 'string' && INTEGER.test(value) ? BigInt(value) : null;
}

/** Thousands separators, one formatter for all (building one per amount costs more than the rest of a list row). */
const GROUPING = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
export const grouped = (whole: bigint): string => GROUPING.format(whole);

/** `1250500000n, 6` → "1,250.5"; trailing zeros dropped, at most `maxFraction` decimals shown (rounded down). */
export function formatUnits(amount: bigint, decimals: number, maxFraction = decimals): string {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const scale = 10n ** BigInt(decimals);
  const whole = grouped(abs / scale);
  const fraction = (abs % scale).toString().padStart(decimals, '0').slice(0, maxFraction).replace(/0+$/, '');
  return `${negative ? '−' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export const formatStx = (microStx: bigint, maxFraction = STX_DECIMALS): string =>
  `${formatUnits(microStx, STX_DECIMALS, maxFraction)} STX`;

const MICRO_PER_STX = 10n ** BigInt(STX_DECIMALS);
/** The smallest amount the two-decimal display can show: below it, "< 0.01 STX" rather than a misleading 0. */
const CENT = MICRO_PER_STX / 100n;

/**
 * A balance for lists and cards: always two decimals (so amounts line up in tabular figures), rounded toward zero
 * (never more than is there), and "< 0.01 STX" for a dust amount that would otherwise read 0 or −0.
 */
export function formatStxBalance(microStx: bigint): string {
  const abs = microStx < 0n ? -microStx : microStx;
  if (abs > 0n && abs < CENT) return microStx < 0n ? '> −0.01 STX' : '< 0.01 STX';
  const cents = abs / CENT;
  const whole = grouped(cents / 100n);
  const fraction = (cents % 100n).toString().padStart(2, '0');
  return `${microStx < 0n ? '−' : ''}${whole}.${fraction} STX`;
}

const COMPACT_FROM = 100_000n * MICRO_PER_STX;
const COMPACT_UNITS: readonly (readonly [bigint, string])[] = [
  [10n ** 9n * MICRO_PER_STX, 'B'],
  [10n ** 6n * MICRO_PER_STX, 'M'],
  [10n ** 3n * MICRO_PER_STX, 'K'],
];

/**
 * A total for a summary line: "53.79M STX" from 100,000 STX up (one or two decimals, rounded down), the
 * two-decimal balance below that. The exact figure belongs in a title or the address page.
 */
export function formatStxCompact(microStx: bigint): string {
  const abs = microStx < 0n ? -microStx : microStx;
  if (abs < COMPACT_FROM) return formatStxBalance(microStx);
  const [unit, suffix] = COMPACT_UNITS.find(([size]) => abs >= size)!;
  const hundredths = (abs * 100n) / unit;
  const whole = hundredths / 100n;
  const fraction = (hundredths % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  const text = `${grouped(whole)}${fraction ? `.${fraction}` : ''}`;
  return `${microStx < 0n ? '−' : ''}${text}${suffix} STX`;
}
