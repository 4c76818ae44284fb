import { useNow } from '../../app/use-now.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { formatStx } from '../../domain/amount.ts';
import { balanceHistory } from '../../domain/balance-history.ts';

const WIDTH = 320;
const HEIGHT = 80;

/** A small line of the STX balance over the known history, drawn from the snapshot (no chart library). */
export function BalanceChart({ principal }: { principal: string }) {
  const snapshot = useSnapshot(principal);
  const now = useNow();
  if (!snapshot?.stx || snapshot.recent.length === 0) return null;
  const points = balanceHistory(snapshot.stx.total, snapshot.recent, Math.floor(now / 1000));
  const times = points.map((point) => point.time);
  const balances = points.map((point) => point.balance);
  const [minT, maxT] = [Math.min(...times), Math.max(...times)];
  const minB = balances.reduce((a, b) => (b < a ? b : a));
  const maxB = balances.reduce((a, b) => (b > a ? b : a));
  const x = (time: number) => (maxT === minT ? WIDTH : ((time - minT) / (maxT - minT)) * WIDTH);
  const y = (balance: bigint) =>
    maxB === minB ? HEIGHT / 2 : HEIGHT - Number(((balance - minB) * 1000n) / (maxB - minB)) * (HEIGHT / 1000);
  const path = points
    .map((point, i) => `${i === 0 ? 'M' : 'L'}${x(point.time).toFixed(1)},${y(point.balance).toFixed(1)}`)
    .join(' ');
  return (
    <figure className="balance-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-label={`STX balance over the last ${snapshot.recent.length} transactions, from ${formatStx(balances[0]!, 2)} to ${formatStx(balances.at(-1)!, 2)}`}
      >
        <path d={path} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      </svg>
      <figcaption className="note">
        Between {formatStx(minB, 2)} and {formatStx(maxB, 2)} over the last {snapshot.recent.length} transactions.
      </figcaption>
    </figure>
  );
}
