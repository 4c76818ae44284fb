import { awayOf, isLive, useStatuses } from '../../app/connection-status.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
import { useSnapshotBook } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { formatStx } from '../../domain/amount.ts';
import { describeFreshness, freshness, notKnownWords } from '../../domain/state/freshness.ts';
import { NETWORK_LABEL, NETWORKS } from '../../domain/network.ts';
import { stxHeld } from '../../domain/state/stx-held.ts';
import type { WatchList } from '../../domain/watch/watchlist.ts';

/**
 * STX available (and locked, bonds' STX with it) across each network's watched addresses, in the one amount format,
 * and how fresh it is. Nothing known yet reads as such, never as a total of 0.
 */
export function NetworkTotals({ entries }: { entries: WatchList }) {
  const book = useSnapshotBook();
  const statuses = useStatuses();
  const online = useOnline();
  const now = useNow();
  const totals = NETWORKS.map((network) => {
    const watched = entries.filter((entry) => entry.network === network);
    let available = 0n;
    let locked = 0n;
    let known = 0;
    let oldest: number | null = null;
    for (const entry of watched) {
      const snapshot = book.get(entry.principal);
      if (!snapshot?.stx) continue;
      known += 1;
      const held = stxHeld(snapshot.stx, snapshot.staking);
      available += held.available;
      locked += held.locked + held.bonded;
      if (snapshot.syncedAt) oldest = Math.min(oldest ?? snapshot.syncedAt, snapshot.syncedAt);
    }
    const away = awayOf(statuses, network, online);
    const fresh = freshness({
      live: online && isLive(statuses, network),
      checkedAt: oldest,
      liveUntil: statuses[network]?.liveUntil ?? null,
      away,
    });
    return { network, count: watched.length, known, available, locked, fresh, away };
  }).filter((total) => total.count > 0);
  if (totals.length === 0) return null;
  return (
    <dl className="totals">
      {totals.map(({ network, count, known, available, locked, fresh, away }) => (
        <div key={network} className="total">
          <dt>
            {NETWORK_LABEL[network]} <span className="muted">({count})</span>
          </dt>
          <dd>
            {known === 0 ? (
              <span className="muted">{notKnownWords(away)}</span>
            ) : (
              <span className="figure">{formatStx(available)}</span>
            )}
            {locked > 0n && <span className="muted"> · {formatStx(locked)} locked</span>}
            {known > 0 && known < count && (
              <span className="muted">
                {' '}
                · {known} of {count} loaded
              </span>
            )}
            {known > 0 && (
              <span className={fresh.kind === 'live' ? 'freshness live' : 'freshness muted'}>
                {' '}
                · {describeFreshness(fresh, now)}
              </span>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}
