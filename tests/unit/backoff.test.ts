import { describe, expect, it } from 'vitest';
import { backoffDelay, doubledWait } from '../../src/domain/backoff.ts';

const backoff = { firstMs: 100, maxMs: 1000 };
const lowest = () => 0;
const highest = () => 1;

describe('backoff with jitter', () => {
  it('doubles from the first wait after each failure, and stops growing at the cap', () => {
    const most = [1, 2, 3, 4, 5, 40].map((failures) => backoffDelay(backoff, failures, highest));
    expect(most).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('waits between half and all of the doubled wait by default, from none with full jitter', () => {
    expect(backoffDelay(backoff, 3, lowest)).toBe(200);
    expect(backoffDelay(backoff, 3, () => 0.5)).toBe(300);
    expect(backoffDelay(backoff, 3, lowest, 'full')).toBe(0);
    expect(backoffDelay(backoff, 3, () => 0.5, 'full')).toBe(200);
  });

  it('never goes below the first wait’s range, even when asked before any failure', () => {
    expect(backoffDelay(backoff, 0, highest)).toBe(100);
  });
});

describe('the doubled wait, without jitter', () => {
  it('is the first wait after the first failure, doubled after each further one, and stops at the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((failures) => doubledWait(backoff, failures))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('is the first wait before any failure, and the cap however many failed (no overflow to Infinity or NaN)', () => {
    expect(doubledWait(backoff, 0)).toBe(100);
    expect(doubledWait(backoff, -3)).toBe(100);
    expect(doubledWait(backoff, 1e9)).toBe(1000);
  });

  it('is the most the jittered wait can be', () => {
    for (const failures of [1, 3, 7]) {
      expect(backoffDelay(backoff, failures, highest)).toBe(doubledWait(backoff, failures));
      expect(backoffDelay(backoff, failures, highest, 'full')).toBe(doubledWait(backoff, failures));
    }
  });
});
