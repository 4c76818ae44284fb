import { useStatuses } from '../../app/connection-status.ts';
import { useOnline } from '../../app/pwa/use-online.ts';
import { useNowCounting } from '../../app/use-now.ts';
import { NETWORK_LABEL, type Network } from '../../domain/network.ts';
import { unreachableLine } from '../../domain/text/node-trouble.ts';
import { formatter } from '../../domain/text/time-text.ts';

/**
 * Where an address shows (its row, its page), that its network's node does not answer, since when and when it is
 * tried again, counting down; with `detail`, what went wrong in words. Nothing while the node answers or the device
 * is offline (the offline bar says that).
 */
export function NodeTroubleLine({ network, detail = false }: { network: Network; detail?: boolean }) {
  const status = useStatuses()[network];
  const online = useOnline();
  const troubled = online && status !== undefined && status.problem !== null && status.feed !== 'live';
  const retryAt = troubled ? (status.retryAt ?? null) : null;
  const now = useNowCounting(retryAt !== null);
  if (!troubled) return null;
  const since = status.problemSince
    ? formatter(undefined, { hour: '2-digit', minute: '2-digit' }).format(status.problemSince)
    : null;
  return (
    <span className="node-trouble" role="status">
      <span className="node-trouble-line">{unreachableLine(NETWORK_LABEL[network], since, retryAt, now)}</span>
      {detail && <span className="node-trouble-detail">{status.problem}</span>}
    </span>
  );
}
