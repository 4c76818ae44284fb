import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../../src/domain/backoff.ts';

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
