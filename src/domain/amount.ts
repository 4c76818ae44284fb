/** Amounts are bigint base units end to end; this is the one way they become text, at the edge. */
export const STX_DECIMALS = 6;
/** STX among assets: rules' minimums and transactions' effects name it so. */
export const STX_ASSET = 'STX';

const INTEGER = /^-?\d+$/;

/** Parses an integer string from the API into bigint; anything else is null (never a float). */
export function parseAmount(value: unknown): bigint | null {
  return typeof value === 'string' && INTEGER.test(value) ? BigInt(value) : null;
}

/**
 * Thousands separators, as en-US writes them (`1234567n` → "1,234,567"). By hand rather than with Intl.NumberFormat:
 * making one loads the locale's data, a long task at start-up on a slow phone for what a pattern does.
 */
const THOUSANDS = /\B(?=(\d{3})+(?!\d))/g;
export const grouped = (whole: bigint): string => whole.toString().replace(THOUSANDS, ',');

/** Decimals every amount shows at least (when its asset has them), so that a column of amounts lines up. */
const MIN_FRACTION = 2;

/**
 * The one display of an amount, wherever it is shown (lists, totals, detail, alerts): thousands grouped, at least two
 * decimals, and every further decimal it has, never rounded, so that the same amount always reads the same and a
 * dust amount never reads 0. `1250500000n, 6` → "1,250.50"; `300n, 6` → "0.0003"; `84n, 0` → "84".
 */
export function formatUnits(amount: bigint, decimals: number): string {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const scale = 10n ** BigInt(decimals);
  const digits = decimals === 0 ? '' : (abs % scale).toString().padStart(decimals, '0');
  const fraction = digits.replace(/0+$/, '').padEnd(Math.min(MIN_FRACTION, decimals), '0');
  return `${negative ? '−' : ''}${grouped(abs / scale)}${fraction ? `.${fraction}` : ''}`;
}

/** "1,250.50 STX", "0.0003 STX": see formatUnits. */
export const formatStx = (microStx: bigint): string => `${formatUnits(microStx, STX_DECIMALS)} STX`;

/** An amount as a person types it into a field: no grouping, no trailing zeros ("1250.5"). */
export function plainUnits(amount: bigint, decimals: number): string {
  return formatUnits(amount, decimals)
    .replace(/,/g, '')
    .replace(/(\.\d*?)0+$/, '$1')
    .replace(/\.$/, '');
}
