import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { formatAge } from '../../domain/activity-text.ts';
import { formatStx } from '../../domain/amount.ts';
import { lastActivityTime } from '../../domain/snapshot.ts';

/** A row's live part: STX available and locked, a pending marker, the time of the last activity. */
export function RowSummary({ principal }: { principal: string }) {
  const snapshot = useSnapshot(principal);
  const now = useNow();
  if (!snapshot?.stx) return <span className="watch-balance muted">Balance not loaded yet</span>;
  const { available, locked } = snapshot.stx;
  const last = lastActivityTime(snapshot);
  return (
    <span className="watch-balance">
      <span className="stx-available">{formatStx(available, 2)}</span>
      {locked > 0n && <span className="stx-locked"> · {formatStx(locked, 2)} locked</span>}
      {snapshot.pending.length > 0 && <span className="badge badge-pending">{snapshot.pending.length} pending</span>}
      {last && <span className="muted"> · last activity {formatAge(last * 1000, now)}</span>}
    </span>
  );
}
