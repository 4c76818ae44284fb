import type { PagerView } from '../../app/history-pager.ts';
import { shortfallWords } from '../../domain/text/history-shortfall.ts';

/**
 * Under the full history: reading on, everything read, or what the device lacks and why (offline). `listed`: the
 * transactions the list holds (those read, and those the engine met since), the count its heading gives too. `gap`:
 * newer transactions than those read are missing (unreadNewer), so the history is not whole, read to its first or not.
 */
export function HistoryStatus({
  view,
  listed,
  gap,
  onRetry,
}: {
  view: PagerView;
  listed: number;
  gap: boolean;
  onRetry: () => void;
}) {
  const { progress, kept } = view;
  if (view.problem)
    return (
      <div role="status" className="history-status">
        <p>
          {shortfallWords({
            listed,
            nodeTotal: progress?.nodeTotal ?? null,
            complete: progress?.complete ?? false,
            oldest: kept.at(-1)?.time,
            problem: view.problem,
          })}
        </p>
        <button type="button" onClick={onRetry}>
          Try again
        </button>
      </div>
    );
  if (view.busyElsewhere)
    return (
      <p role="status" className="history-status note">
        A CSV export is reading this history: its transactions show here as it keeps them.
      </p>
    );
  if (gap)
    return (
      <p role="status" className="history-status note">
        Reading newer transactions…
      </p>
    );
  if (progress?.complete)
    return (
      <p role="status" className="history-status note">
        The whole history: all {listed} transaction{listed === 1 ? '' : 's'}, down to the first, read from the node.
      </p>
    );
  return (
    <p role="status" className="history-status note">
      {view.reading ? 'Reading older transactions…' : 'Scroll for older transactions.'}
    </p>
  );
}
