import { useStatuses } from '../../app/connection-status.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import type { Network } from '../../domain/network.ts';
import { stakingView } from '../../domain/text/staking-view.ts';

/** PoX-5 staking of the address: what is staked and until when, a scheduled unstake, sBTC rewards, bonds. */
export function StakingCard({ principal, network }: { principal: string; network: Network }) {
  const snapshot = useSnapshot(principal);
  const statuses = useStatuses();
  const view = stakingView(snapshot?.staking, snapshot?.recent ?? [], statuses[network]?.tip?.burnHeight ?? null);
  if (!view) return null;
  return (
    <section className="card staking-card" aria-labelledby="staking-heading">
      <h2 id="staking-heading">Staking</h2>
      <dl className="facts">
        <dt>Staked</dt>
        <dd>
          {view.staked ? (
            <>
              <span className="figure">{view.staked.amount}</span>{' '}
              <span className="unlock-when">{view.staked.until}</span>
            </>
          ) : (
            'none now'
          )}
        </dd>
        {view.unstake && (
          <>
            <dt>Unstake</dt>
            <dd className="staking-unstake">{view.unstake}</dd>
          </>
        )}
        <dt>Claimable</dt>
        <dd className="figure staking-claimable" title="sBTC rewards that a claim would pay now">
          {view.rewards.claimable}
        </dd>
        <dt>Claimed</dt>
        <dd className="figure">{view.rewards.claimed}</dd>
        <dt>Earned</dt>
        <dd className="figure">{view.rewards.accrued}</dd>
      </dl>
      {view.paused && (
        <p className="staking-paused" role="status">
          {view.paused}
        </p>
      )}
      {view.bonds.length > 0 && (
        <ul className="staking-bonds" aria-label="Bonds">
          {view.bonds.map((bond) => (
            <li key={bond.name}>
              <strong>{bond.name}</strong> · {bond.status} · {bond.held}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
