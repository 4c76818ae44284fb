import { useState, type ReactNode } from 'react';
import { useNaming } from '../../app/use-naming.ts';
import { usePoisoning } from '../../app/use-poisoning.ts';
import { describeActivity, describeParties } from '../../domain/text/activity-text.ts';
import { failureLine } from '../../domain/text/attempt-text.ts';
import type { Network } from '../../domain/network.ts';
import type { Activity } from '../../domain/state/snapshot.ts';
import { txEffect } from '../../domain/state/tx-effect.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { PoisoningWarning } from './PoisoningWarning.tsx';
import { TransactionDetail } from './TransactionDetail.tsx';

interface Props {
  readonly activity: Activity;
  /** The address whose page this is: the words are its own movement. */
  readonly principal: string;
  readonly network: Network;
  readonly tipHeight: number | null;
  readonly now: number;
  /** What the full history adds to a row: its signed amounts and fee, what became of it. */
  readonly aside?: ReactNode;
}

/**
 * One transaction: what it did to the address (in the alerts' words), with whom and through which call, when, how
 * deep, the memo; pressing it opens the transaction's detail (a notification's link opens it at once).
 */
export function ActivityRow({ activity, principal, network, tipHeight, now, aside }: Props) {
  const naming = useNaming();
  const suspect = usePoisoning()(activity, principal);
  const [open, setOpen] = useState(() => typeof location !== 'undefined' && location.hash === `#tx-${activity.txId}`);
  const confirmations =
    activity.blockHeight !== null && tipHeight !== null ? Math.max(1, tipHeight - activity.blockHeight + 1) : null;
  const effect = txEffect(activity, principal);
  const main = effect.effects[0];
  const direction = !main ? 'none' : main.net > 0n ? 'in' : 'out';
  const parties = describeParties(activity, principal, naming);
  const detailId = `detail-${activity.txId}`;
  const failure = failureLine(activity, naming);
  return (
    <li
      id={`tx-${activity.txId}`}
      className={`activity-row activity-${activity.status} direction-${direction}${suspect ? ' poisoning' : ''}`}
      data-tx={activity.txId}
    >
      <button
        type="button"
        className="activity-title link-button"
        aria-expanded={open}
        aria-controls={detailId}
        onClick={() => setOpen((was) => !was)}
      >
        {describeActivity(activity, principal, naming)}
      </button>
      {failure && <span className="activity-failure">{failure}</span>}
      {aside}
      {suspect && <PoisoningWarning suspect={suspect} naming={naming} />}
      <span className="activity-meta muted">
        {parties ? `${parties} · ` : ''}
        <RelativeTime ms={activity.time * 1000} now={now} />
        {confirmations !== null ? ` · ${confirmations} confirmation${confirmations === 1 ? '' : 's'}` : ''}
      </span>
      {activity.memo && <span className="memo">“{activity.memo.slice(0, 80)}”</span>}
      {open && (
        <div id={detailId}>
          <TransactionDetail activity={activity} network={network} suspect={suspect} />
        </div>
      )}
    </li>
  );
}
