import { useTokenCatalog } from '../../app/token-context.tsx';
import { describeAssetChange } from '../../domain/asset-text.ts';
import { describeActivity } from '../../domain/activity-text.ts';
import { middleEllipsis } from '../../domain/middle-ellipsis.ts';
import type { Activity } from '../../domain/snapshot.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';

interface Props {
  readonly activity: Activity;
  readonly tipHeight: number | null;
  readonly now: number;
  /** Opens the transaction's detail, where there is one; without it the row is plain text. */
  readonly onOpen?: (activity: Activity) => void;
}

/** One transaction: what (in the engine's words), the amounts, with whom, when, how deep, the memo. */
export function ActivityRow({ activity, tipHeight, now, onOpen }: Props) {
  const catalog = useTokenCatalog();
  const confirmations =
    activity.blockHeight !== null && tipHeight !== null ? Math.max(1, tipHeight - activity.blockHeight + 1) : null;
  const direction = activity.stxNet > 0n ? 'in' : activity.stxNet < 0n ? 'out' : 'none';
  const title = describeActivity(activity);
  return (
    <li
      id={`tx-${activity.txId}`}
      className={`activity-row activity-${activity.status} direction-${direction}`}
      data-tx={activity.txId}
    >
      {onOpen ? (
        <button type="button" className="activity-title link-button" onClick={() => onOpen(activity)}>
          {title}
        </button>
      ) : (
        <span className="activity-title">{title}</span>
      )}
      {activity.assets?.map((change) => (
        <span key={`${change.type}:${change.assetIdentifier}`} className="activity-asset">
          {describeAssetChange(change, catalog.get(change.assetIdentifier))}
        </span>
      ))}
      <span className="activity-meta muted">
        {activity.counterparty && (
          <span title={activity.counterparty}>
            {activity.stxNet >= 0n ? 'from' : 'to'}{' '}
            <span className="principal">{middleEllipsis(activity.counterparty)}</span> ·{' '}
          </span>
        )}
        <RelativeTime ms={activity.time * 1000} now={now} />
        {confirmations !== null ? ` · ${confirmations} confirmation${confirmations === 1 ? '' : 's'}` : ''}
      </span>
      {activity.memo && <span className="memo">“{activity.memo.slice(0, 80)}”</span>}
    </li>
  );
}
