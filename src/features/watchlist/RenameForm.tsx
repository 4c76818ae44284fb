import { useId, useState, type FormEvent } from 'react';
import type { WatchEntry } from '../../domain/watch/watch-entry.ts';
import { useWatchlistController } from '../../app/watchlist-context.tsx';
import { keptLabelInput } from './label-input.ts';
import { LabelLimit } from './LabelLimit.tsx';

/** A row's label, edited in place; Escape or Cancel leaves it as it was. */
export function RenameForm({ entry, onDone }: { entry: WatchEntry; onDone: () => void }) {
  const controller = useWatchlistController();
  const [draft, setDraft] = useState(entry.label);
  const [error, setError] = useState<string | null>(null);
  const limitId = useId();

  function save(event: FormEvent) {
    event.preventDefault();
    const renamed = controller.rename(entry.principal, draft);
    if (!renamed.ok) return setError(renamed.error);
    onDone();
  }

  return (
    <form className="rename" onSubmit={save} onKeyDown={(event) => event.key === 'Escape' && onDone()}>
      <label className="rename-field">
        <span className="visually-hidden">New label for {entry.principal}</span>
        <input
          value={draft}
          onChange={(event) => {
            setDraft(keptLabelInput(draft, event.target));
            setError(null);
          }}
          autoFocus
          aria-describedby={limitId}
        />
      </label>
      <LabelLimit id={limitId} label={draft} />
      <button type="submit" className="primary">
        Save
      </button>
      <button type="button" onClick={onDone}>
        Cancel
      </button>
      {error && (
        <p role="alert" className="error">
          {error}
        </p>
      )}
    </form>
  );
}
