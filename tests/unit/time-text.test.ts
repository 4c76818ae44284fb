import { describe, expect, it } from 'vitest';
import { dayLabel, groupByDay } from '../../src/domain/text/day-groups.ts';
import { exactTime, relativeTime } from '../../src/domain/text/time-text.ts';

const UTC = { locale: 'en-GB', timeZone: 'UTC' };
const NOW = Date.parse('2026-11-23T12:00:00Z');
const ago = (ms: number) => NOW - ms;
const MIN = 60_000;

describe('relativeTime', () => {
  it('reads like a person would say it', () => {
    expect(relativeTime(ago(10_000), NOW, UTC)).toBe('just now');
    expect(relativeTime(ago(3 * MIN), NOW, UTC)).toBe('3 min ago');
    expect(relativeTime(ago(150 * MIN), NOW, UTC)).toBe('3 h ago');
    expect(relativeTime(Date.parse('2026-11-22T23:00:00Z'), NOW, UTC)).toBe('yesterday');
    expect(relativeTime(Date.parse('2026-11-19T08:00:00Z'), NOW, UTC)).toBe('4 days ago');
    expect(relativeTime(Date.parse('2026-03-12T08:00:00Z'), NOW, UTC)).toBe('12 Mar');
    expect(relativeTime(Date.parse('2025-03-12T08:00:00Z'), NOW, UTC)).toBe('12 Mar 2025');
  });

  it('treats a time slightly in the future (a skewed clock) as just now', () => {
    expect(relativeTime(NOW + 30_000, NOW, UTC)).toBe('just now');
  });
});

describe('exactTime and days', () => {
  it('gives the full time for a tooltip', () => {
    expect(exactTime(NOW, UTC)).toBe('Mon, 23 Nov 2026, 12:00:00');
  });

  it('labels days and groups a newest-first list by day', () => {
    expect(dayLabel(NOW, NOW, UTC)).toBe('Today');
    expect(dayLabel(ago(24 * 60 * MIN), NOW, UTC)).toBe('Yesterday');
    expect(dayLabel(Date.parse('2026-11-20T01:00:00Z'), NOW, UTC)).toBe('Friday 20 Nov');
    const times = [NOW, ago(60 * MIN), ago(24 * 60 * MIN), ago(25 * 60 * MIN), ago(5 * 24 * 60 * MIN)];
    const groups = groupByDay(times, (time) => time, NOW, UTC);
    expect(groups.map((group) => [group.label, group.items.length])).toEqual([
      ['Today', 2],
      ['Yesterday', 2],
      ['Wednesday 18 Nov', 1],
    ]);
  });
});
