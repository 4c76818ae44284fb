import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { formatStx } from '../../domain/amount.ts';
import { pendingStx, pendingStxLines } from '../../domain/state/pending-stx.ts';
import { lastActivityTime } from '../../domain/state/snapshot.ts';
import { stxHeld } from '../../domain/state/stx-held.ts';
import { isStakingNow } from '../../domain/state/staking.ts';
import type { Network } from '../../domain/network.ts';
import { NetworkBadge } from '../../ui/NetworkBadge.tsx';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { NodeTroubleLine } from '../pwa/NodeTroubleLine.tsx';

/**
 * A row's live part: STX available (and locked, a bond's STX with them), what is on its way in and out, a pending
 * marker, when the last activity was; on a phone, the network mark (`network`, null where it tells nothing apart),
 * which a wider row shows beside the address.
 */
export function RowSummary({
  principal,
  network,
  followed,
}: {
  principal: string;
  network: Network | null;
  /** The network it is followed on: its node's trouble shows while nothing is loaded. */
  followed: Network;
}) {
  const snapshot = useSnapshot(principal);
  const now = useNow();
  const mark = network && (
    <span className="phone-only">
      <NetworkBadge network={network} />
    </span>
  );
  if (!snapshot?.stx)
    return (
      <span className="watch-figures">
        <span className="muted">
          Not loaded yet
          <NodeTroubleLine network={followed} />
        </span>
        <span className="watch-when">{mark}</span>
      </span>
    );
  const held = stxHeld(snapshot.stx, snapshot.staking);
  const available = held.available;
  const locked = held.locked + held.bonded;
  const last = lastActivityTime(snapshot);
  const moving = pendingStxLines(pendingStx(snapshot));
  return (
    <span className="watch-figures">
      {/* One column of their own: the lines stay together however many lines the pills beside them take. */}
      <span className="stx-figures">
        <span className="stx-available">{formatStx(available)}</span>
        {locked > 0n && <span className="stx-locked muted">{formatStx(locked)} locked</span>}
        {moving.in && <span className="stx-moving stx-incoming">{moving.in}</span>}
        {moving.out && <span className="stx-moving stx-outgoing">{moving.out}</span>}
      </span>
      <span className="watch-when">
        {mark}
        {snapshot.pending.length > 0 && <span className="badge badge-pending">{snapshot.pending.length} pending</span>}
        {isStakingNow(snapshot.staking) && (
          <span className="badge badge-staking" title="Stakes STX or holds a bond (PoX-5)">
            Staking
          </span>
        )}
        {last && <RelativeTime ms={last * 1000} now={now} />}
      </span>
    </span>
  );
}
