import { useStatuses } from '../../app/connection-status.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import type { Network } from '../../domain/network.ts';
import { groupByDay } from '../../domain/day-groups.ts';
import { ActivityRow } from './ActivityRow.tsx';

/** Pending first, then mined by day, newest first. */
export function ActivityList({ principal, network }: { principal: string; network: Network }) {
  const snapshot = useSnapshot(principal);
  const tip = useStatuses()[network]?.tip ?? null;
  const now = useNow();
  const pending = snapshot?.pending ?? [];
  const days = groupByDay(snapshot?.recent ?? [], (activity) => activity.time * 1000, now);
  return (
    <section className="card activity-card" aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {pending.length === 0 && days.length === 0 && <p className="note">No transactions known yet.</p>}
      {pending.length > 0 && (
        <section aria-label="Pending">
          <h3 className="day-heading">Pending</h3>
          <ol className="activity">
            {pending.map((activity) => (
              <ActivityRow
                key={activity.txId}
                activity={activity}
                principal={principal}
                network={network}
                tipHeight={tip?.height ?? null}
                now={now}
              />
            ))}
          </ol>
        </section>
      )}
      {days.map((day) => (
        <section key={day.key} aria-label={day.label}>
          <h3 className="day-heading">{day.label}</h3>
          <ol className="activity">
            {day.items.map((activity) => (
              <ActivityRow
                key={activity.txId}
                activity={activity}
                principal={principal}
                network={network}
                tipHeight={tip?.height ?? null}
                now={now}
              />
            ))}
          </ol>
        </section>
      ))}
    </section>
  );
}
