import './inbox.css';
import './inbox-entry.css';
import './inbox-controls.css';
import { useMemo, useState } from 'react';
import { useAlertStores, useInboxEntries } from '../../app/alerts-context.tsx';
import { useNaming } from '../../app/use-naming.ts';
import { useLastLooked } from '../../app/use-last-looked.ts';
import { useNow } from '../../app/use-now.ts';
import { useWatchlistState } from '../../app/watchlist-context.tsx';
import { inboxRows } from '../../domain/alerts/inbox-rows.ts';
import { firstSeenRow } from '../../domain/alerts/since-looked.ts';
import { sinceOfSearch } from '../../domain/alerts/toast-view.ts';
import {
  ALL_ALERTS,
  filterInbox,
  groupByAddress,
  unreadUnder,
  type InboxFilter,
} from '../../domain/alerts/inbox-view.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import { marksNetwork, networksOf, type Network } from '../../domain/network.ts';
import { groupByDay } from '../../domain/text/day-groups.ts';
import { InboxDayList } from './InboxDayList.tsx';
import { InboxFilters } from './InboxFilters.tsx';
import { InboxGroup } from './InboxGroup.tsx';

/** How many alerts the screen lists at first, and how many more each press of "Show older" adds. */
const PAGE = 200;

/**
 * Every alert, newest first, by day: in time order (one list a day, each row naming its address, a line under what
 * came since the user last looked), or grouped by address (foldable); each row with its state; filterable (filtered
 * by one address, the unread count and the button that marks them read are that address's); read on open, on "Mark
 * these read" or a swipe; deletable. A transfer between two watched addresses is one row (inbox-rows.ts).
 */
export function InboxScreen() {
  const { inbox } = useAlertStores();
  const entries = useInboxEntries();
  const watch = useWatchlistState();
  const now = useNow();
  const [shown, setShown] = useState(PAGE);
  const [filter, setFilter] = useState<InboxFilter>(ALL_ALERTS);
  const [byAddress, setByAddress] = useState(false);
  const naming = useNaming();
  const lookedAt = useLastLooked();
  // Opened from a toast's "+N more": the line is drawn where its burst began, not where the user last looked.
  const [burstFrom] = useState(() => sinceOfSearch(window.location.search));
  const home = filter.principal === 'all' ? undefined : filter.principal;
  const rows = useMemo(() => inboxRows(entries, naming, home), [entries, naming, home]);
  // Under an address filter, that address's: the count beside "Unread" and what the button marks read.
  const unreadRows = unreadUnder(rows, filter);
  const unread = unreadRows.length;
  const matching = filterInbox(rows, filter);
  const listed = matching.slice(0, shown);
  // In time order only: grouped by address, the rows of one moment are apart.
  const seenFrom = byAddress ? null : firstSeenRow(listed, burstFrom === null ? lookedAt : burstFrom - 1);
  const since =
    burstFrom === null ? { at: lookedAt } : { at: burstFrom, count: listed.findIndex((row) => row.id === seenFrom) };
  const watched = watch.status === 'ready' ? watch.entries : [];
  const labels = new Map(watched.map((entry) => [entry.principal, naming.party(entry.principal)]));
  // As the filter names it.
  const filteredBy = home && (labels.get(home) || middleEllipsis(home));
  const networks = networksOf([...watched, ...entries]);
  const markNetwork = (network: Network) => marksNetwork(network, networks);
  const onRead = (ids: readonly string[]) => void inbox.markRead(ids);
  const onDelete = (ids: readonly string[]) => void inbox.change(new Map(ids.map((id) => [id, () => undefined])));
  return (
    <section className="inbox">
      <div className="inbox-head">
        <h1>Inbox</h1>
        <button
          type="button"
          className="inbox-mark-all"
          disabled={unread === 0}
          onClick={() => void (home ? inbox.markRead(unreadRows.flatMap((row) => row.ids)) : inbox.markAllRead())}
        >
          {filteredBy ? `Mark ${filteredBy}’s alerts read` : 'Mark all read'}
        </button>
      </div>
      {/* Once there are alerts, the Unread filter says the count: the words stay for a screen reader only. */}
      <p className={entries.length === 0 ? 'note' : 'visually-hidden'} aria-live="polite">
        {entries.length === 0
          ? 'No alerts yet. They appear here as something happens to a watched address.'
          : unread === 0
            ? filteredBy
              ? `${filteredBy}’s alerts are all read.`
              : 'Everything is read.'
            : `${unread} unread`}
      </p>
      {entries.length > 0 && (
        <InboxFilters entries={entries} labels={labels} filter={filter} onChange={setFilter} unread={unread}>
          {entries.length > 1 && (
            <label className="choice inbox-grouping">
              <input type="checkbox" checked={byAddress} onChange={(event) => setByAddress(event.target.checked)} />
              Group by address
            </label>
          )}
        </InboxFilters>
      )}
      {entries.length > 0 && matching.length === 0 && <p className="empty">No alert matches this filter.</p>}
      {byAddress
        ? groupByAddress(listed, now).map((day) => (
            <section key={day.key} className="inbox-day" aria-labelledby={`day-${day.key}`}>
              <div className="inbox-day-top">
                <h2 id={`day-${day.key}`} className="day-heading">
                  {day.label}
                </h2>
              </div>
              {day.addresses.map((run) => (
                <InboxGroup
                  key={`${run.network}:${run.principal}`}
                  run={run}
                  name={naming.party(run.principal)}
                  markNetwork={markNetwork(run.network)}
                  now={now}
                  onRead={onRead}
                  onDelete={onDelete}
                />
              ))}
            </section>
          ))
        : groupByDay(listed, (row) => row.at, now).map((day) => (
            <InboxDayList
              key={day.key}
              day={day}
              seenFrom={seenFrom}
              since={since}
              markNetwork={markNetwork}
              now={now}
              onRead={onRead}
              onDelete={onDelete}
            />
          ))}
      {matching.length > shown && (
        <button type="button" onClick={() => setShown(shown + PAGE)}>
          Show older alerts ({matching.length - shown} more)
        </button>
      )}
    </section>
  );
}
