import { describe, expect, it } from 'vitest';
import { formatStx, formatStxBalance, formatStxCompact } from '../../src/domain/amount.ts';

describe('formatStxBalance', () => {
  it('always shows two decimals, rounded toward zero, so amounts line up', () => {
    expect(formatStxBalance(53_799_999_900_000n)).toBe('53,799,999.90 STX');
    expect(formatStxBalance(960_000n)).toBe('0.96 STX');
    expect(formatStxBalance(1_999_999n)).toBe('1.99 STX');
    expect(formatStxBalance(0n)).toBe('0.00 STX');
  });

  it('never says 0 or −0 for dust', () => {
    expect(formatStxBalance(1n)).toBe('< 0.01 STX');
    expect(formatStxBalance(9_999n)).toBe('< 0.01 STX');
    expect(formatStxBalance(-5n)).toBe('> −0.01 STX');
    expect(formatStxBalance(-20_000n)).toBe('−0.02 STX');
  });

  it('leaves formatStx (the alert wording) as it was', () => {
    expect(formatStx(1_250_500_000n)).toBe('1,250.5 STX');
  });
});

describe('formatStxCompact', () => {
  it('shortens large totals and keeps small ones exact to the cent', () => {
    expect(formatStxCompact(53_799_999_900_000n)).toBe('53.79M STX');
    expect(formatStxCompact(250_000_000_000n)).toBe('250K STX');
    expect(formatStxCompact(2_100_000_000_000_000n)).toBe('2.1B STX');
    expect(formatStxCompact(99_999_990_000n)).toBe('99,999.99 STX');
    expect(formatStxCompact(3n)).toBe('< 0.01 STX');
  });
});
