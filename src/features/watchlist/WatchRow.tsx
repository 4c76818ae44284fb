import { memo, useState, type FormEvent } from 'react';
import { KIND_LABEL } from '../../domain/address-messages.ts';
import { LABEL_MAX_LENGTH } from '../../domain/label.ts';
import type { WatchEntry } from '../../domain/watch-entry.ts';
import { addressPath, navigate } from '../../app/router.ts';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { RowSummary } from './RowSummary.tsx';

interface Props {
  readonly entry: WatchEntry;
  readonly isFirst: boolean;
  readonly isLast: boolean;
  readonly onRemove: (principal: string) => void;
}

export const WatchRow = memo(function WatchRow({ entry, isFirst, isLast, onRemove }: Props) {
  const controller = useWatchlistController();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(entry.label);
  const [error, setError] = useState<string | null>(null);
  const name = entry.label || entry.principal;
  const href = addressPath(entry.principal);

  function save(event: FormEvent) {
    event.preventDefault();
    const renamed = controller.rename(entry.principal, draft);
    if (!renamed.ok) return setError(renamed.error);
    setEditing(false);
    setError(null);
  }

  return (
    <li className="watch-row">
      <div className="watch-main">
        {editing ? (
          <form className="rename" onSubmit={save} onKeyDown={(event) => event.key === 'Escape' && setEditing(false)}>
            <label>
              <span className="visually-hidden">New label for {entry.principal}</span>
              <input
                value={draft}
                maxLength={LABEL_MAX_LENGTH}
                onChange={(event) => setDraft(event.target.value)}
                autoFocus
              />
            </label>
            <button type="submit">Save</button>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
            {error && (
              <p role="alert" className="error">
                {error}
              </p>
            )}
          </form>
        ) : (
          <a
            className="watch-link"
            href={href}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              navigate(href);
            }}
          >
            <span className={entry.label ? 'watch-label' : 'watch-label unlabelled'}>{entry.label || 'No label'}</span>{' '}
            <code className="principal">{entry.principal}</code>
            {entry.name && <span className="bns-name">{entry.name}</span>}
          </a>
        )}
        <span className="watch-meta">
          <NetworkBadge network={entry.network} /> {KIND_LABEL[entry.kind]}
        </span>
        <RowSummary principal={entry.principal} />
      </div>
      <div className="watch-actions">
        <button
          type="button"
          onClick={() => {
            setDraft(entry.label);
            setEditing(true);
          }}
          aria-label={`Rename ${name}`}
        >
          Rename
        </button>
        <button
          type="button"
          onClick={() => controller.move(entry.principal, -1)}
          disabled={isFirst}
          aria-label={`Move ${name} up`}
        >
          ↑
        </button>
        <button
          type="button"
          onClick={() => controller.move(entry.principal, 1)}
          disabled={isLast}
          aria-label={`Move ${name} down`}
        >
          ↓
        </button>
        <button type="button" onClick={() => onRemove(entry.principal)} aria-label={`Remove ${name}`}>
          Remove
        </button>
      </div>
    </li>
  );
});
