import { formatter, type TimeFormat } from '../text/time-text.ts';

/**
 * How the chart's time axis writes its ticks: hours within two days, day and month within one year, and the year as
 * soon as the span crosses one (a history of years never reads "12 Mar" for two different Marches).
 */
export function timeAxisOptions(startSeconds: number, endSeconds: number, format: TimeFormat = {}) {
  const zone = format.timeZone ? { timeZone: format.timeZone } : {};
  const year = (seconds: number) => formatter(format.locale, { year: 'numeric', ...zone }).format(seconds * 1000);
  if ((endSeconds - startSeconds) / 86_400 < 2) return { hour: '2-digit', minute: '2-digit', ...zone } as const;
  if (year(startSeconds) !== year(endSeconds)) return { month: 'short', year: 'numeric', ...zone } as const;
  return { day: 'numeric', month: 'short', ...zone } as const;
}

/** The labels of the time axis' ticks, in that format. */
export function timeAxisLabel(startSeconds: number, endSeconds: number, format: TimeFormat = {}) {
  const options: Intl.DateTimeFormatOptions = timeAxisOptions(startSeconds, endSeconds, format);
  const made = formatter(format.locale, options);
  return (seconds: number): string => made.format(seconds * 1000);
}
