import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { formatAge } from '../../domain/activity-text.ts';
import { formatStx } from '../../domain/amount.ts';

export function BalanceCard({ principal }: { principal: string }) {
  const snapshot = useSnapshot(principal);
  const now = useNow();
  if (!snapshot?.stx) return <p className="note">No balance known yet: it appears once the node answers.</p>;
  const { total, available, locked, unlockBurnHeight } = snapshot.stx;
  return (
    <section className="balance-card" aria-labelledby="balance-heading">
      <h2 id="balance-heading">Balance</h2>
      <dl className="facts">
        <dt>Available</dt>
        <dd className="stx-available">{formatStx(available)}</dd>
        <dt>Locked</dt>
        <dd>{locked > 0n ? `${formatStx(locked)} until burn block ${unlockBurnHeight}` : 'none'}</dd>
        <dt>Total</dt>
        <dd>{formatStx(total)}</dd>
      </dl>
      {snapshot.syncedAt && <p className="note">Checked with the node {formatAge(snapshot.syncedAt, now)}.</p>}
    </section>
  );
}
