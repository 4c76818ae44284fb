import { useState } from 'react';
import { navigate } from '../../app/router.ts';
import type { InboxRow } from '../../domain/alerts/inbox-rows.ts';
import type { AddressRun } from '../../domain/alerts/inbox-view.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { InboxItem } from './InboxItem.tsx';
import { keepMarkedFocus } from './inbox-focus.ts';

interface Props {
  readonly run: AddressRun<InboxRow>;
  /** The address as the user knows it (label, else BNS name, else the short address). */
  readonly name: string;
  /** Whether its network tells the address apart from the others (see marksNetwork). */
  readonly markNetwork: boolean;
  readonly now: number;
  readonly onRead: (ids: readonly string[]) => void;
  readonly onDelete: (ids: readonly string[]) => void;
}

/**
 * A day's alerts of one address when the inbox is grouped by address, headed by its name (its rows do not name it
 * again); "Mark these read"; folded to its heading. A row may stand for two alerts (a pair).
 */
export function InboxGroup({ run, name, markNetwork, now, onRead, onDelete }: Props) {
  const [folded, setFolded] = useState(false);
  const count = `${run.entries.length} ${run.entries.length === 1 ? 'alert' : 'alerts'}`;
  return (
    // A group, not a landmark: an address has a group on each day, and landmarks must be unique.
    <section className="card inbox-group" role="group" aria-label={`${name}, ${count}`}>
      <div className="inbox-group-top">
        <h3 className="inbox-group-head">
          <button type="button" className="quiet inbox-fold" aria-expanded={!folded} onClick={() => setFolded(!folded)}>
            {/* The arrow starts the name's text: a long name wraps after it, never leaving it alone on a line. */}
            <span className="inbox-group-title">
              <span className="inbox-fold-arrow" aria-hidden="true">
                {folded ? '▸' : '▾'}
              </span>
              <span className="inbox-group-name">{name}</span>
            </span>
            {markNetwork && <NetworkBadge network={run.network} />}
            {run.unread > 0 && <span className="badge badge-unread">{run.unread} unread</span>}
            {folded && <span className="muted inbox-count">{count}</span>}
          </button>
        </h3>
        {/* One unread row has its own ✓ beside it. */}
        {run.unread > 1 && (
          <button
            type="button"
            className="quiet inbox-mark-these"
            onClick={(event) => {
              keepMarkedFocus(event.currentTarget);
              onRead(run.entries.filter((row) => !row.read).flatMap((row) => row.ids));
            }}
          >
            Mark these read
          </button>
        )}
      </div>
      {!folded && (
        <ol className="inbox-list">
          {run.entries.map((row) => (
            <InboxItem
              key={row.id}
              row={row}
              named={false}
              markNetwork={false}
              now={now}
              onOpen={() => {
                onRead(row.ids);
                navigate(row.path);
              }}
              onRead={() => onRead(row.ids)}
              onDelete={() => onDelete(row.ids)}
            />
          ))}
        </ol>
      )}
    </section>
  );
}
