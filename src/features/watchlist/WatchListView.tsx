import './watch-list.css';
import { lazy, Suspense, useCallback, useDeferredValue, useRef, useState } from 'react';
import type { WatchList } from '../../domain/watch/watchlist.ts';
import { marksNetwork, networksOf } from '../../domain/network.ts';
import { filterEntries } from '../../domain/watch/watch-filter.ts';
import { useNameBook } from '../../app/name-context.tsx';
import { offerUndo } from '../../app/undo-offer.ts';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import { Icon } from '../../ui/Icon.tsx';
import { PLUS_ICON } from '../../ui/icons.ts';
import type { ListQuery } from './ListFilters.tsx';
import { canScanQr } from './can-scan-qr.ts';
import { NetworkTotals } from './NetworkTotals.tsx';
import { WatchRow } from './WatchRow.tsx';

const ListFilters = lazy(() => import('./ListFilters.tsx').then((module) => ({ default: module.ListFilters })));

/** Search appears once the list is long enough to need it. */
const SEARCH_FROM = 4;

/** The list's heading, focusable: where the focus goes once what had it (a removed row, a card) is gone. */
export const WATCHLIST_HEADING = 'watchlist-heading';

export function WatchListView({ entries, onAdd }: { entries: WatchList; onAdd: () => void }) {
  const controller = useWatchlistController();
  const [query, setQuery] = useState<ListQuery>({ text: '', network: 'all' });
  const deferred = useDeferredValue(query);
  const heading = useRef<HTMLHeadingElement>(null);
  const book = useNameBook();
  const shown = filterEntries(entries, deferred.text, deferred.network, (principal) => book?.get(principal));
  const networks = networksOf(entries);

  const remove = useCallback(
    (principal: string) => {
      const removed = controller.remove(principal);
      if (removed) offerUndo(controller, removed);
      heading.current?.focus();
    },
    [controller],
  );

  return (
    <section className="watchlist" aria-labelledby={WATCHLIST_HEADING}>
      <div className="watchlist-head">
        <h2 id={WATCHLIST_HEADING} ref={heading} tabIndex={-1}>
          Watch list <span className="count">{entries.length}</span>
        </h2>
        <button type="button" className="primary add-button" onClick={onAdd}>
          <Icon path={PLUS_ICON} size={18} />
          Add <span className="add-word">address</span>
        </button>
      </div>
      <NetworkTotals entries={entries} />
      {(entries.length >= SEARCH_FROM || networks.size > 1) && (
        // Its own chunk, with a placeholder of its height so that the list does not jump when it arrives.
        <Suspense fallback={<div className="list-filters-placeholder" />}>
          <ListFilters
            query={query}
            onChange={setQuery}
            networks={networks}
            showSearch={entries.length >= SEARCH_FROM}
          />
        </Suspense>
      )}
      {entries.length === 0 ? (
        <div className="empty">
          <p className="empty-lead">Watch any Stacks address and get an alert the moment something happens to it.</p>
          <p>Nothing watched yet. Add an address{canScanQr() ? ' (or scan its QR code)' : ''} to start.</p>
        </div>
      ) : shown.length === 0 ? (
        <p className="empty" role="status">
          No address matches “{deferred.text}”.
        </p>
      ) : (
        <ul className="watch-rows">
          {shown.map((entry) => (
            <WatchRow
              key={entry.principal}
              entry={entry}
              isFirst={entry === entries[0]}
              isLast={entry === entries.at(-1)}
              onRemove={remove}
              markNetwork={marksNetwork(entry.network, networks)}
              learnedName={book?.get(entry.principal) ?? null}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
