import { useStatuses } from '../../app/connection-status.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { formatStx } from '../../domain/amount.ts';
import { pendingStx, pendingStxLines } from '../../domain/state/pending-stx.ts';
import { stxHeld } from '../../domain/state/stx-held.ts';
import type { Network } from '../../domain/network.ts';
import { unlockText } from '../../domain/text/unlock-text.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { NodeTroubleLine } from '../pwa/NodeTroubleLine.tsx';
import { useFreshness } from './use-freshness.ts';

/**
 * The STX balance in full (all six decimals: this is where the exact figure lives), what is pending, its lock and what
 * its bonds hold (neither spendable).
 */
export function BalanceCard({ principal, network }: { principal: string; network: Network }) {
  const snapshot = useSnapshot(principal);
  const now = useNow();
  const statuses = useStatuses();
  const fresh = useFreshness(snapshot?.syncedAt ?? null, network);
  if (!snapshot?.stx)
    return (
      <div className="card note">
        <p>No balance known yet: it appears once the node answers.</p>
        <NodeTroubleLine network={network} detail />
      </div>
    );
  const { total, available, locked, bonded, bonds } = stxHeld(snapshot.stx, snapshot.staking);
  const { unlockBurnHeight } = snapshot.stx;
  const tip = statuses[network]?.tip ?? null;
  const moving = pendingStxLines(pendingStx(snapshot));
  return (
    <section className="card balance-card" aria-labelledby="balance-heading">
      <h2 id="balance-heading">Available</h2>
      <p className="balance-figure stx-available">{formatStx(available)}</p>
      {(moving.in || moving.out) && (
        <p className="balance-moving">
          {moving.in && <span className="stx-moving stx-incoming">{moving.in}</span>}
          {moving.out && <span className="stx-moving stx-outgoing">{moving.out}</span>}
        </p>
      )}
      <dl className="facts">
        <dt>Locked</dt>
        <dd>
          {locked > 0n ? (
            <>
              <span className="figure">{formatStx(locked)}</span>{' '}
              <span className="unlock-when">{unlockText(unlockBurnHeight, tip?.burnHeight ?? null)}</span>
            </>
          ) : (
            bonded === 0n && 'none'
          )}
          {bonded > 0n && (
            <>
              <span className="figure stx-bonded">{formatStx(bonded)}</span>{' '}
              <span className="unlock-when">
                {bonds === 1 ? 'in a bond, until it ends' : `in ${bonds} bonds, until each ends`}
              </span>
            </>
          )}
        </dd>
        <dt>Total</dt>
        <dd className="figure">{formatStx(total)}</dd>
      </dl>
      {fresh.kind === 'live' && <p className="note freshness live">Live: the node tells every change as it happens.</p>}
      {fresh.kind === 'checked' && (
        <p className="note">
          Checked with the node <RelativeTime ms={fresh.at} now={now} />.
        </p>
      )}
    </section>
  );
}
