import { NETWORK_LABEL, type Network } from '../domain/network.ts';

export function NetworkBadge({ network }: { network: Network }) {
  return <span className={`badge badge-${network}`}>{NETWORK_LABEL[network]}</span>;
}
