import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useStatuses } from '../../app/connection-status.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import type { Network } from '../../domain/network.ts';
import type { Activity } from '../../domain/state/snapshot.ts';
import { groupByDay } from '../../domain/text/day-groups.ts';
import { ActivityRow } from './ActivityRow.tsx';

// Its filters, list and reading from the node stay out of the first paint's bytes.
const FullHistory = lazy(() => import('./FullHistory.tsx'));

/** Pending first, then mined by day, newest first; the full history (every transaction, filters) when asked for. */
export function ActivityList({ principal, network }: { principal: string; network: Network }) {
  const [full, setFull] = useState(false);
  const snapshot = useSnapshot(principal);
  const tip = useStatuses()[network]?.tip ?? null;
  const now = useNow();
  const pending = snapshot?.pending ?? [];
  const days = groupByDay(snapshot?.recent ?? [], (activity) => activity.time * 1000, now);
  const nothing = pending.length === 0 && days.length === 0;
  // Read from the node and still empty: the node knows none. The full history stays offered: what this device kept of
  // it (read from an earlier node, a devnet since reset) is still there to open.
  const none = nothing && snapshot?.syncedAt != null;
  const row = (activity: Activity) => (
    <ActivityRow
      key={activity.txId}
      activity={activity}
      principal={principal}
      network={network}
      tipHeight={tip?.height ?? null}
      now={now}
    />
  );
  if (full)
    return (
      <Suspense fallback={<p className="note">Opening the full history…</p>}>
        <FullHistory principal={principal} network={network} />
      </Suspense>
    );
  return (
    <section className="card activity-card" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {nothing && (
        <p className="note">
          {none ? 'No transactions: the node knows none for this address yet.' : 'No transactions known yet.'}
        </p>
      )}
      {pending.length > 0 && <DayGroup label="Pending" items={pending} row={row} />}
      {days.map((day) => (
        <DayGroup key={day.key} label={day.label} items={day.items} row={row} />
      ))}
      <button type="button" className="full-history-open" onClick={() => setFull(true)}>
        Full history: every transaction, filters, amounts
      </button>
    </section>
  );
}

/** One heading ("Pending", "Today", "12 Mar") and its transactions. */
function DayGroup({
  label,
  items,
  row,
}: {
  label: string;
  items: readonly Activity[];
  row: (activity: Activity) => ReactNode;
}) {
  return (
    <section aria-label={label}>
      <h3 className="day-heading">{label}</h3>
      <ol className="activity">{items.map(row)}</ol>
    </section>
  );
}
