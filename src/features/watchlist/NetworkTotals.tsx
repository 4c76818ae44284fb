import { useSnapshotBook } from '../../app/snapshot-context.tsx';
import { formatStx } from '../../domain/amount.ts';
import { NETWORK_LABEL, NETWORKS } from '../../domain/network.ts';
import type { WatchList } from '../../domain/watchlist.ts';

/** STX available and locked across the watched addresses of each network. */
export function NetworkTotals({ entries }: { entries: WatchList }) {
  const book = useSnapshotBook();
  const totals = NETWORKS.map((network) => {
    const watched = entries.filter((entry) => entry.network === network);
    let available = 0n;
    let locked = 0n;
    for (const entry of watched) {
      const stx = book.get(entry.principal)?.stx;
      available += stx?.available ?? 0n;
      locked += stx?.locked ?? 0n;
    }
    return { network, count: watched.length, available, locked };
  }).filter((total) => total.count > 0);
  if (totals.length === 0) return null;
  return (
    <dl className="totals">
      {totals.map(({ network, count, available, locked }) => (
        <div key={network}>
          <dt>
            {NETWORK_LABEL[network]} ({count})
          </dt>
          <dd>
            {formatStx(available, 2)}
            {locked > 0n ? ` · ${formatStx(locked, 2)} locked` : ''}
          </dd>
        </div>
      ))}
    </dl>
  );
}
