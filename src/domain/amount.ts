/** Amounts are bigint base units end to end; these turn them into text only at the edge. */
export const STX_DECIMALS = 6;

const INTEGER = /^-?\d+$/;

/** Parses an integer string from the API into bigint; anything else is null (never a float). */
export function parseAmount(value: unknown): bigint | null {
  return typeof value === 'string' && INTEGER.test(value) ? BigInt(value) : null;
}

/** `1250500000n, 6` → "1,250.5"; trailing zeros dropped, at most `maxFraction` decimals shown (rounded down). */
export function formatUnits(amount: bigint, decimals: number, maxFraction = decimals): string {
  const negative = amount < 0n;
  const abs = negative ? -amount : amount;
  const scale = 10n ** BigInt(decimals);
  const whole = (abs / scale).toLocaleString('en-US');
  const fraction = (abs % scale).toString().padStart(decimals, '0').slice(0, maxFraction).replace(/0+$/, '');
  return `${negative ? '−' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

export const formatStx = (microStx: bigint, maxFraction = STX_DECIMALS): string =>
  `${formatUnits(microStx, STX_DECIMALS, maxFraction)} STX`;
