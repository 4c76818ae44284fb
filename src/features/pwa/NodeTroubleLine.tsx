import './node-trouble.css';
import { useStatuses } from '../../app/connection-status.ts';
import { useTroubleLine } from '../../app/node-trouble-lines.ts';
import type { Network } from '../../domain/network.ts';

/**
 * Where an address shows (its row, its page), that its network's node does not answer, since when and when it is
 * tried again, counting down; with `detail`, what went wrong in words. Nothing while the node answers or the device
 * is offline (the offline bar says that). A row's line is no live region: a list of a thousand would announce a
 * thousand countdowns every second (the header's status says it once); the address page's one is.
 */
export function NodeTroubleLine({ network, detail = false }: { network: Network; detail?: boolean }) {
  const line = useTroubleLine(network);
  if (line === null) return null;
  return (
    <span className="node-trouble" role={detail ? 'status' : undefined}>
      <span className="node-trouble-line">{line}</span>
      {detail && <TroubleDetail network={network} />}
    </span>
  );
}

function TroubleDetail({ network }: { network: Network }) {
  const status = useStatuses()[network];
  return <span className="node-trouble-detail">{status?.problem}</span>;
}
