import { formatStx } from '../../domain/amount.ts';
import type { AwayMark } from '../../domain/history/history-view.ts';
import { signedAmounts } from '../../domain/history/history-view.ts';
import type { Activity } from '../../domain/state/snapshot.ts';
import { amountText, type Naming } from '../../domain/text/effect-text.ts';

const MARK_WORDS: Record<AwayMark, string> = {
  dropped: 'Dropped: never mined, nothing moved',
  reverted: 'Reverted by a re-org: not on the chain now',
};

/** A full-history row's column: what happened to it when it left the chain, its signed amounts, the fee it paid. */
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
  const { lines, fee } = signedAmounts(activity, principal);
  return (
    <div className="history-aside">
      {mark && <p className={`history-mark history-mark-${mark}`}>{MARK_WORDS[mark]}</p>}
      <ul className="signed-amounts" aria-label="Amounts">
        {lines.map(({ effect, sign }) => (
          <li key={effect.assetIdentifier} className={sign === '+' ? 'amount-in' : 'amount-out'}>
            {sign}
            {amountText(effect, naming)}
          </li>
        ))}
        {fee !== null && <li className="amount-fee">Fee {formatStx(fee)}</li>}
      </ul>
    </div>
  );
}
