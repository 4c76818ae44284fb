import { useSnapshotBook } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { formatAge } from '../../domain/activity-text.ts';
import { formatStx } from '../../domain/amount.ts';
import { NETWORK_LABEL, NETWORKS } from '../../domain/network.ts';
import type { WatchList } from '../../domain/watchlist.ts';

/** STX available and locked across the watched addresses of each network, and how old that knowledge is. */
export function NetworkTotals({ entries }: { entries: WatchList }) {
  const book = useSnapshotBook();
  const now = useNow();
  const totals = NETWORKS.map((network) => {
    const watched = entries.filter((entry) => entry.network === network);
    let available = 0n;
    let locked = 0n;
    let oldest: number | null = null;
    for (const entry of watched) {
      const snapshot = book.get(entry.principal);
      available += snapshot?.stx?.available ?? 0n;
      locked += snapshot?.stx?.locked ?? 0n;
      if (snapshot?.syncedAt) oldest = Math.min(oldest ?? snapshot.syncedAt, snapshot.syncedAt);
    }
    return { network, count: watched.length, available, locked, oldest };
  }).filter((total) => total.count > 0);
  if (totals.length === 0) return null;
  return (
    <dl className="totals">
      {totals.map(({ network, count, available, locked, oldest }) => (
        <div key={network}>
          <dt>
            {NETWORK_LABEL[network]} ({count})
          </dt>
          <dd>
            {formatStx(available, 2)}
            {locked > 0n ? ` · ${formatStx(locked, 2)} locked` : ''}
            <span className="muted"> · {oldest ? `checked ${formatAge(oldest, now)}` : 'not checked yet'}</span>
          </dd>
        </div>
      ))}
    </dl>
  );
}
