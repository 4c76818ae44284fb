import { useStatuses } from '../../app/connection-status.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useTokenCatalog } from '../../app/token-context.tsx';
import { describeAssetChange } from '../../domain/asset-text.ts';
import { describeActivity, shortPrincipal } from '../../domain/activity-text.ts';
import type { Network } from '../../domain/network.ts';
import type { Activity } from '../../domain/snapshot.ts';

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
            <ActivityRow key={activity.txId} activity={activity} tipHeight={tip?.height ?? null} />
          ))}
        </ol>
      )}
    </section>
  );
}

function ActivityRow({ activity, tipHeight }: { activity: Activity; tipHeight: number | null }) {
  const catalog = useTokenCatalog();
  const confirmations =
    activity.blockHeight !== null && tipHeight !== null ? Math.max(1, tipHeight - activity.blockHeight + 1) : null;
  return (
    <li id={`tx-${activity.txId}`} className={`activity-row activity-${activity.status}`} data-tx={activity.txId}>
      <span className="activity-title">{describeActivity(activity)}</span>
      {activity.assets?.map((change) => (
        <span key={`${change.type}:${change.assetIdentifier}`} className="activity-asset">
          {describeAssetChange(change, catalog.get(change.assetIdentifier))}
        </span>
      ))}
      <span className="muted">
        {activity.counterparty
          ? `${activity.stxNet >= 0n ? 'from' : 'to'} ${shortPrincipal(activity.counterparty)} · `
          : ''}
        {new Date(activity.time * 1000).toLocaleString()}
        {confirmations !== null ? ` · ${confirmations} confirmation${confirmations === 1 ? '' : 's'}` : ''}
      </span>
      {activity.memo && <span className="memo">“{activity.memo.slice(0, 80)}”</span>}
    </li>
  );
}
