import { useCallback, useRef, useState } from 'react';
import type { Removal, WatchList } from '../../domain/watchlist.ts';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import { NetworkTotals } from './NetworkTotals.tsx';
import { UndoBar } from './UndoBar.tsx';
import { WatchRow } from './WatchRow.tsx';

export function WatchListView({ entries }: { entries: WatchList }) {
  const controller = useWatchlistController();
  const [removal, setRemoval] = useState<Removal | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  const remove = useCallback(
    (principal: string) => {
      const removed = controller.remove(principal);
      if (removed) setRemoval(removed);
      heading.current?.focus();
    },
    [controller],
  );
  const expire = useCallback(() => setRemoval(null), []);

  return (
    <section className="watchlist" aria-labelledby="watchlist-heading">
      <h2 id="watchlist-heading" ref={heading} tabIndex={-1}>
        Your watch list <span className="count">{entries.length}</span>
      </h2>
      <NetworkTotals entries={entries} />
      {entries.length === 0 ? (
        <p className="empty">Nothing watched yet. Paste an address above to start.</p>
      ) : (
        <ul className="watch-rows">
          {entries.map((entry, index) => (
            <WatchRow
              key={entry.principal}
              entry={entry}
              isFirst={index === 0}
              isLast={index === entries.length - 1}
              onRemove={remove}
            />
          ))}
        </ul>
      )}
      {removal && (
        <UndoBar
          removal={removal}
          onExpire={expire}
          onUndo={() => {
            controller.undo(removal);
            setRemoval(null);
          }}
        />
      )}
    </section>
  );
}
