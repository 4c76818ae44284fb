import { useState } from 'react';
import { useStatuses } from '../../app/connection-status.ts';
import { useNaming } from '../../app/use-naming.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { describeActivity, describeParties } from '../../domain/activity-text.ts';
import type { Network } from '../../domain/network.ts';
import type { Activity } from '../../domain/snapshot.ts';
import { TransactionDetail } from './TransactionDetail.tsx';

/** Pending first, then mined, newest first: what, with whom, the memo as plain text, when, how deep. */
export function ActivityList({ principal, network }: { principal: string; network: Network }) {
  const snapshot = useSnapshot(principal);
  const tip = useStatuses()[network]?.tip ?? null;
  const items = [...(snapshot?.pending ?? []), ...(snapshot?.recent ?? [])];
  return (
    <section aria-labelledby="activity-heading">
      <h2 id="activity-heading">Activity</h2>
      {items.length === 0 ? (
        <p className="note">No transactions known yet.</p>
      ) : (
        <ol className="activity">
          {items.map((activity) => (
            <ActivityRow
              key={activity.txId}
              activity={activity}
              principal={principal}
              network={network}
              tipHeight={tip?.height ?? null}
            />
          ))}
        </ol>
      )}
    </section>
  );
}

function ActivityRow({
  activity,
  principal,
  network,
  tipHeight,
}: {
  activity: Activity;
  principal: string;
  network: Network;
  tipHeight: number | null;
}) {
  const naming = useNaming();
  // A notification's link opens its transaction's detail.
  const [open, setOpen] = useState(() => typeof location !== 'undefined' && location.hash === `#tx-${activity.txId}`);
  const confirmations =
    activity.blockHeight !== null && tipHeight !== null ? Math.max(1, tipHeight - activity.blockHeight + 1) : null;
  const parties = describeParties(activity, principal, naming);
  const detailId = `detail-${activity.txId}`;
  return (
    <li id={`tx-${activity.txId}`} className={`activity-row activity-${activity.status}`} data-tx={activity.txId}>
      <button
        type="button"
        className="activity-open"
        aria-expanded={open}
        aria-controls={detailId}
        onClick={() => setOpen((was) => !was)}
      >
        <span className="activity-title">{describeActivity(activity, principal, naming)}</span>
      </button>
      <span className="muted">
        {parties ? `${parties} · ` : ''}
        {new Date(activity.time * 1000).toLocaleString()}
        {confirmations !== null ? ` · ${confirmations} confirmation${confirmations === 1 ? '' : 's'}` : ''}
      </span>
      {activity.memo && <span className="memo">“{activity.memo.slice(0, 80)}”</span>}
      {open && (
        <div id={detailId}>
          <TransactionDetail activity={activity} network={network} />
        </div>
      )}
    </li>
  );
}
