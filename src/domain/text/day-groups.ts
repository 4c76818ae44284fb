import { dayKey, daysBetween, formatter, shortDate, type TimeFormat } from './time-text.ts';

/* Day headings and day groups for the lists of the screens loaded on demand (activity, inbox). */

/** A day heading: "Today", "Yesterday", "Monday 16 Nov", "12 Mar 2025". */
export function dayLabel(ms: number, nowMs: number, format: TimeFormat = {}): string {
  const days = daysBetween(ms, nowMs, format);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  if (days > 1 && days < 7)
    return formatter(format.locale, {
      weekday: 'long',
      day: 'numeric',
      month: 'short',
      timeZone: format.timeZone,
    }).format(ms);
  return shortDate(ms, nowMs, format);
}

export interface DayGroup<T> {
  readonly key: string;
  readonly label: string;
  readonly items: readonly T[];
}

/** Splits a list already in time order into runs of one calendar day each, keeping the order. */
export function groupByDay<T>(
  items: readonly T[],
  timeOf: (item: T) => number,
  nowMs: number,
  format: TimeFormat = {},
): DayGroup<T>[] {
  const groups: { key: string; label: string; items: T[] }[] = [];
  for (const item of items) {
    const ms = timeOf(item);
    const key = dayKey(ms, format);
    const last = groups.at(-1);
    if (last?.key === key) last.items.push(item);
    else groups.push({ key, label: dayLabel(ms, nowMs, format), items: [item] });
  }
  return groups;
}
