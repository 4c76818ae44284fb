import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatStx, formatUnits, grouped, plainUnits } from '../../src/domain/amount.ts';

describe('the one amount format', () => {
  it('shows at least two decimals, so a column of amounts lines up', () => {
    expect(formatStx(53_799_999_900_000n)).toBe('53,799,999.90 STX');
    expect(formatStx(100_089_000_000n)).toBe('100,089.00 STX');
    expect(formatStx(960_000n)).toBe('0.96 STX');
    expect(formatStx(0n)).toBe('0.00 STX');
  });

  it('shows every further decimal an amount has, never rounded: a fee or dust is never 0', () => {
    expect(formatStx(1_999_999n)).toBe('1.999999 STX');
    expect(formatStx(300n)).toBe('0.0003 STX');
    expect(formatStx(1n)).toBe('0.000001 STX');
    expect(formatStx(-20_000n)).toBe('−0.02 STX');
    expect(formatStx(-5n)).toBe('−0.000005 STX');
  });

  it('follows a token’s decimals, whole numbers for a token without any', () => {
    expect(formatUnits(10_500_000_000n, 6)).toBe('10,500.00');
    expect(formatUnits(123_456_789n, 8)).toBe('1.23456789');
    expect(formatUnits(5n, 1)).toBe('0.5');
    expect(formatUnits(84n, 0)).toBe('84');
  });

  it('groups thousands as en-US does, for any whole number', () => {
    const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), (whole) => {
        expect(grouped(whole)).toBe(intl.format(whole));
      }),
    );
  });

  it('reads back as the same amount, whatever it is', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 18 }), (amount, decimals) => {
        const [whole, fraction = ''] = formatUnits(amount, decimals).replace(/,/g, '').split('.');
        expect(BigInt(`${whole}${fraction.padEnd(decimals, '0')}`)).toBe(amount);
        expect(fraction.length).toBeGreaterThanOrEqual(Math.min(2, decimals));
      }),
    );
  });

  it('gives a field the amount as a person types it', () => {
    expect(plainUnits(1_250_500_000n, 6)).toBe('1250.5');
    expect(plainUnits(5_000_000n, 6)).toBe('5');
    expect(plainUnits(300n, 6)).toBe('0.0003');
    expect(plainUnits(100n, 0)).toBe('100');
  });
});
