import { useState } from 'react';
import { navigate } from '../../app/router.ts';
import type { InboxRow } from '../../domain/alerts/inbox-rows.ts';
import type { AddressRun } from '../../domain/alerts/inbox-view.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { InboxItem } from './InboxItem.tsx';

interface Props {
  readonly run: AddressRun<InboxRow>;
  readonly label: string;
  /** Whether its network tells the address apart from the others (see marksNetwork). */
  readonly markNetwork: boolean;
  /** Grouped by address: the group can be folded to its heading. */
  readonly collapsible: boolean;
  readonly now: number;
  readonly onRead: (ids: readonly string[]) => void;
  readonly onDelete: (ids: readonly string[]) => void;
}

/**
 * Alerts of one address, headed by its name: each row's words but the line naming the address again, when, read
 * state; "Mark these read"; folded to its heading when grouped by address. A row may stand for two alerts (a pair).
 */
export function InboxGroup({ run, label, markNetwork, collapsible, now, onRead, onDelete }: Props) {
  const [folded, setFolded] = useState(false);
  const name = label || middleEllipsis(run.principal);
  const count = `${run.entries.length} ${run.entries.length === 1 ? 'alert' : 'alerts'}`;
  const heading = (
    <>
      <span className="inbox-group-name">{name}</span>
      {markNetwork && <NetworkBadge network={run.network} />}
      {run.unread > 0 && <span className="badge badge-unread">{run.unread} unread</span>}
      {collapsible && folded && <span className="muted inbox-count">{count}</span>}
    </>
  );
  return (
    // A group, not a landmark: in time order one address can have several runs, and landmarks must be unique.
    <section className="card inbox-group" role="group" aria-label={`${name}, ${count}`}>
      <div className="inbox-group-top">
        <h3 className="inbox-group-head">
          {collapsible ? (
            <button
              type="button"
              className="quiet inbox-fold"
              aria-expanded={!folded}
              onClick={() => setFolded(!folded)}
            >
              <span aria-hidden="true">{folded ? '▸' : '▾'}</span> {heading}
            </button>
          ) : (
            heading
          )}
        </h3>
        {/* One unread row has its own ✓ beside it. */}
        {run.unread > 1 && (
          <button
            type="button"
            className="quiet inbox-mark-these"
            onClick={() => onRead(run.entries.filter((row) => !row.read).flatMap((row) => row.ids))}
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
