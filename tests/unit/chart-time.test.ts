import { describe, expect, it } from 'vitest';
import { timeAxisLabel } from '../../src/domain/chart/chart-time.ts';

const at = (iso: string) => Date.parse(iso) / 1000;
const UTC = { locale: 'en-GB', timeZone: 'UTC' };

describe('the chart’s time axis', () => {
  it('shows the year when the history spans years (two Marches never read the same)', () => {
    const [start, end] = [at('2024-03-12T10:00:00Z'), at('2026-03-12T10:00:00Z')];
    const label = timeAxisLabel(start, end, UTC);
    expect([label(start), label(end)]).toEqual(['Mar 2024', 'Mar 2026']);
  });

  it('shows the year when a short history crosses New Year', () => {
    const [start, end] = [at('2025-12-20T10:00:00Z'), at('2026-01-05T10:00:00Z')];
    expect(timeAxisLabel(start, end, UTC)(start)).toBe('Dec 2025');
  });

  it('keeps day and month within a year, and hours within two days', () => {
    const [start, end] = [at('2026-02-01T10:00:00Z'), at('2026-11-01T10:00:00Z')];
    expect(timeAxisLabel(start, end, UTC)(start)).toBe('1 Feb');
    expect(timeAxisLabel(start, start + 3600, UTC)(start)).toBe('10:00');
  });
});
