import { NETWORKS, type Network } from '../domain/network.ts';
import type { MonitorStatus } from '../monitor/network-monitor.ts';
import type { Statuses } from './connection-status.ts';

export type FeedWord = MonitorStatus['feed'];

/** The worst state wins: one indicator stands for every followed network, and it must not hide a problem. */
const SEVERITY: Record<FeedWord, number> = { live: 0, connecting: 1, reconnecting: 2, offline: 3 };

export interface ConnectionSummary {
  readonly feed: FeedWord;
  readonly syncing: boolean;
  readonly problem: boolean;
  readonly networks: readonly { readonly network: Network; readonly status: MonitorStatus }[];
}

export function summariseConnections(statuses: Statuses, online: boolean): ConnectionSummary | null {
  const networks = NETWORKS.flatMap((network) => {
    const status = statuses[network];
    return status ? [{ network, status }] : [];
  });
  if (networks.length === 0) return null;
  const worst = networks.reduce<FeedWord>(
    (feed, { status }) => (SEVERITY[status.feed] > SEVERITY[feed] ? status.feed : feed),
    'live',
  );
  return {
    feed: online ? worst : 'offline',
    syncing: networks.some(({ status }) => status.syncing),
    problem: networks.some(({ status }) => status.problem !== null),
    networks,
  };
}
