import { Fragment } from 'react';
import { navigate } from '../../app/router.ts';
import type { InboxRow } from '../../domain/alerts/inbox-rows.ts';
import type { Network } from '../../domain/network.ts';
import type { DayGroup } from '../../domain/text/day-groups.ts';
import { InboxItem } from './InboxItem.tsx';
import { SinceLine, type SinceMark } from './SinceLine.tsx';
import { keepMarkedFocus } from './inbox-focus.ts';

interface Props {
  readonly day: DayGroup<InboxRow>;
  /** The row the "since you last looked" line goes above, when it is one of this day's (since-looked.ts). */
  readonly seenFrom: string | null;
  /** The line's words: when the user last looked, or when a toast's burst began and how many came since. */
  readonly since: SinceMark;
  /** Whether a row's network tells its address apart from the others (see marksNetwork). */
  readonly markNetwork: (network: Network) => boolean;
  readonly now: number;
  readonly onRead: (ids: readonly string[]) => void;
  readonly onDelete: (ids: readonly string[]) => void;
}

/**
 * One day of the inbox in time order, as a phone's notification list: its heading, "Mark these read" beside two or
 * more unread (one has its own ✓), and one list whose rows each name their address, with no heading between them.
 */
export function InboxDayList({ day, seenFrom, since, markNetwork, now, onRead, onDelete }: Props) {
  const unread = day.items.filter((row) => !row.read);
  const split = day.items.findIndex((row) => row.id === seenFrom);
  // Above the line what came since the user last looked, below what they had seen: two lists of the one day.
  const parts = split === -1 ? [day.items] : [day.items.slice(0, split), day.items.slice(split)];
  const item = (row: InboxRow) => (
    <InboxItem
      key={row.id}
      row={row}
      named
      markNetwork={markNetwork(row.network)}
      now={now}
      onOpen={() => {
        onRead(row.ids);
        navigate(row.path);
      }}
      onRead={() => onRead(row.ids)}
      onDelete={() => onDelete(row.ids)}
    />
  );
  return (
    <section className="inbox-day" aria-labelledby={`day-${day.key}`}>
      <div className="inbox-day-top">
        <h2 id={`day-${day.key}`} className="day-heading">
          {day.label}
        </h2>
        {unread.length > 1 && (
          <button
            type="button"
            className="quiet inbox-mark-these"
            onClick={(event) => {
              keepMarkedFocus(event.currentTarget);
              onRead(unread.flatMap((row) => row.ids));
            }}
          >
            Mark these read
          </button>
        )}
      </div>
      {parts.map((rows, index) => (
        <Fragment key={index}>
          {index > 0 && <SinceLine {...since} />}
          {rows.length > 0 && <ol className="inbox-list card inbox-day-list">{rows.map(item)}</ol>}
        </Fragment>
      ))}
    </section>
  );
}
