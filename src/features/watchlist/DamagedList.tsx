import { describeWatchlistDamage } from '../../domain/text/storage-messages.ts';
import type { DamagedList as Damaged } from '../../store/watchlist-state.ts';
import { downloadDamagedLater } from './download-later.ts';

/**
 * The stored watch list did not read whole: what is wrong, what is shown, and the user's choice. Nothing is saved
 * over the damaged record until they make it.
 */
export function DamagedList({ damaged, shown, onReplace }: { damaged: Damaged; shown: number; onReplace: () => void }) {
  const reason = damaged.damage.reason ?? damaged.damage.dropped.join('; ');
  const copy = { record: 'the watch list', place: damaged.place, reason, value: damaged.raw };
  return (
    <div role="alert" className="error storage-alert">
      <p>{describeWatchlistDamage(damaged.damage, shown)}</p>
      <div className="storage-actions">
        <button type="button" onClick={() => downloadDamagedLater([copy])}>
          Download the damaged record
        </button>
        <button type="button" className="primary" onClick={onReplace}>
          {shown > 0 ? 'Save the list below' : 'Start a new list'}
        </button>
      </div>
    </div>
  );
}
