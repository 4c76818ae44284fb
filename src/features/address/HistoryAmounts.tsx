import { formatStx } from '../../domain/amount.ts';
import type { AwayMark } from '../../domain/history/history-view.ts';
import { signedAmounts } from '../../domain/history/history-view.ts';
import type { Activity } from '../../domain/state/snapshot.ts';
import { amountText, type Naming } from '../../domain/text/effect-text.ts';
import { feeRaised } from '../../domain/text/activity-text.ts';
import { shortTxId } from '../../domain/text/alert-text.ts';

const markWords = (mark: AwayMark, activity: Activity): string =>
  mark === 'dropped'
    ? feeRaised(activity)
      ? `Replaced by ${activity.replacedBy ? shortTxId(activity.replacedBy) : 'another'} with a higher fee: never mined, nothing moved`
      : 'Dropped: never mined, nothing moved'
    : activity.status === 'pending'
      ? 'Reverted by a re-org: back in the mempool, not mined again yet'
      : 'Reverted by a re-org: not on the chain now';

/** A full-history row's additions: what happened to it when it left the chain, its signed amounts, the fee it paid. */
export function HistoryAmounts({
  activity,
  principal,
  mark,
  naming,
}: {
  activity: Activity;
  principal: string;
  mark: AwayMark | null;
  naming: Naming;
}) {
  const { lines, locked, fee } = signedAmounts(activity, principal);
  return (
    <>
      {mark && <p className={`history-mark history-mark-${mark}`}>{markWords(mark, activity)}</p>}
      <ul className="signed-amounts" aria-label="Amounts">
        {lines.map(({ effect, sign }) => (
          <li key={effect.assetIdentifier} className={sign === '+' ? 'amount-in' : 'amount-out'}>
            {sign}
            {amountText(effect, naming)}
          </li>
        ))}
        {locked !== null && <li className="amount-locked">Locked {formatStx(locked)}</li>}
        {fee !== null && <li className="amount-fee">Fee {formatStx(fee)}</li>}
      </ul>
    </>
  );
}
