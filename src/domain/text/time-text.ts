/** Times as people read them: relative for the recent past, a day heading for lists, the exact time on demand. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Formatters are costly to build and a list shows hundreds of times: one per set of options. */
const formatters = new Map<string, Intl.DateTimeFormat>();
export function formatter(locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = JSON.stringify([locale, options]);
  let made = formatters.get(key);
  if (!made) formatters.set(key, (made = new Intl.DateTimeFormat(locale, options)));
  return made;
}

export interface TimeFormat {
  /** BCP 47 locale; the device's when absent. */
  readonly locale?: string;
  /** IANA time zone; the device's when absent (tests pin it). */
  readonly timeZone?: string;
}

/** "just now", "3 min ago", "2 h ago", "yesterday", "4 days ago", then "12 Mar" (with the year when not this one). */
export function relativeTime(thenMs: number, nowMs: number, format: TimeFormat = {}): string {
  const elapsed = Math.max(0, nowMs - thenMs);
  if (elapsed < 45_000) return 'just now';
  if (elapsed < HOUR) return `${Math.max(1, Math.round(elapsed / MINUTE))} min ago`;
  const days = daysBetween(thenMs, nowMs, format);
  if (days === 0) return `${Math.round(elapsed / HOUR)} h ago`;
  if (days === 1) return 'yesterday';
  if (days < 7) return `${days} days ago`;
  return shortDate(thenMs, nowMs, format);
}

/** The full time for a tooltip or a long press: "Mon, 23 Nov 2026, 05:36:24". */
export function exactTime(ms: number, format: TimeFormat = {}): string {
  return formatter(format.locale, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    timeZone: format.timeZone,
  }).format(ms);
}

/** A machine-readable day, "2026-11-23", in the given (or the device's) time zone: the key of a day group. */
export function dayKey(ms: number, format: TimeFormat = {}): string {
  const parts = formatter('en-CA', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    timeZone: format.timeZone,
  }).formatToParts(ms);
  const part = (type: string) => parts.find((candidate) => candidate.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

/** Calendar days from `thenMs` to `nowMs` in the time zone (0 = the same day), whatever the hours. */
export function daysBetween(thenMs: number, nowMs: number, format: TimeFormat): number {
  const midnight = (ms: number) => Date.parse(`${dayKey(ms, format)}T00:00:00Z`);
  return Math.round((midnight(nowMs) - midnight(thenMs)) / DAY);
}

export function shortDate(ms: number, nowMs: number, format: TimeFormat): string {
  const sameYear = dayKey(ms, format).slice(0, 4) === dayKey(nowMs, format).slice(0, 4);
  return formatter(format.locale, {
    day: 'numeric',
    month: 'short',
    year: sameYear ? undefined : 'numeric',
    timeZone: format.timeZone,
  }).format(ms);
}
