import { useEffect } from 'react';
import type { Removal } from '../../domain/watchlist.ts';

export const UNDO_WINDOW_MS = 10_000;

export function UndoBar({ removal, onUndo, onExpire }: { removal: Removal; onUndo: () => void; onExpire: () => void }) {
  useEffect(() => {
    const timer = setTimeout(onExpire, UNDO_WINDOW_MS);
    return () => clearTimeout(timer);
  }, [removal, onExpire]);

  return (
    <div className="undo-bar" role="status">
      <span>Removed {removal.entry.label ? `“${removal.entry.label}”` : removal.entry.principal}.</span>
      <button type="button" onClick={onUndo}>
        Undo
      </button>
    </div>
  );
}
