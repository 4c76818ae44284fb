import { useId, type ReactNode } from 'react';
import type { InboxEntry } from '../../domain/alerts/inbox.ts';
import { filterAddresses, type InboxFilter } from '../../domain/alerts/inbox-view.ts';
import { middleEllipsis } from '../../domain/address/middle-ellipsis.ts';

/**
 * All or unread, and one address or all of them (those that have alerts, in the watch list's order), with `children` (the grouping) on the
 * same line: on a phone they take one line or two, not a screen's top third, above the first alert.
 */
export function InboxFilters({
  entries,
  labels,
  filter,
  onChange,
  unread,
  children,
}: {
  entries: readonly InboxEntry[];
  labels: ReadonlyMap<string, string>;
  filter: InboxFilter;
  onChange: (filter: InboxFilter) => void;
  unread: number;
  children?: ReactNode;
}) {
  const name = useId();
  // `labels` is in the watch list's order.
  const principals = filterAddresses(
    entries.map((entry) => entry.principal),
    [...labels.keys()],
  );
  return (
    <div className="list-filters inbox-filters">
      <fieldset className="segmented">
        <legend className="visually-hidden">Which alerts</legend>
        {[false, true].map((unreadOnly) => (
          <label key={String(unreadOnly)} className={filter.unreadOnly === unreadOnly ? 'selected' : undefined}>
            <input
              type="radio"
              name={name}
              className="visually-hidden"
              checked={filter.unreadOnly === unreadOnly}
              onChange={() => onChange({ ...filter, unreadOnly })}
            />
            {unreadOnly ? `Unread (${unread})` : 'All'}
          </label>
        ))}
      </fieldset>
      {principals.length > 1 && (
        <select
          aria-label="Alerts of"
          value={filter.principal}
          onChange={(event) => onChange({ ...filter, principal: event.target.value })}
        >
          <option value="all">Every address</option>
          {principals.map((principal) => (
            <option key={principal} value={principal}>
              {labels.get(principal) || middleEllipsis(principal)}
            </option>
          ))}
        </select>
      )}
      {children}
    </div>
  );
}
