import { formatter } from '../../domain/text/time-text.ts';

/** When the line's time is: the user's last look at the inbox, or, with a count, when a toast's burst began. */
export interface SinceMark {
  readonly at: number | null;
  /** How many rows stand above the line: said for a burst ("17 new since 10:42"), whose toast said "+N more". */
  readonly count?: number;
}

/**
 * The line between what came since the user last looked at the inbox (above) and what they had seen (below), with
 * the time of that look: "New since you last looked, 10:42"; opened from a toast's "+N more", between its burst and
 * what came before it: "17 new since 10:42".
 */
export function SinceLine({ at, count }: SinceMark) {
  const time = at === null ? '' : formatter(undefined, { hour: '2-digit', minute: '2-digit' }).format(at);
  const words =
    count === undefined
      ? `New since you last looked${time ? `, ${time}` : ''}`
      : `${count} new${time ? ` since ${time}` : ''}`;
  return (
    <p className="inbox-since" role="separator">
      <span>
        {words} <span aria-hidden="true">↑</span>
      </span>
    </p>
  );
}
