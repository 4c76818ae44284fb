import { NETWORK_LABEL, NETWORKS, type Network } from '../domain/network.ts';
import { nextTryWords } from '../domain/text/node-trouble.ts';
import type { MonitorStatus } from '../monitor/monitor-status.ts';
import type { Statuses } from './connection-status.ts';

/**
 * A network's connection in the user's terms. "Reconnecting" only once a connection lived: a node never reached is
 * "connecting" while nothing has failed (or while only the live feed fails and its REST answers), and "unreachable"
 * once it has not answered.
 */
export type ConnectionWord = 'live' | 'connecting' | 'unreachable' | 'reconnecting' | 'offline';

/** The worst state wins: one indicator stands for every followed network, and it must not hide a problem. */
const SEVERITY: Record<ConnectionWord, number> = {
  live: 0,
  connecting: 1,
  reconnecting: 2,
  unreachable: 3,
  offline: 4,
};

export function connectionWord(status: MonitorStatus): ConnectionWord {
  if (status.feed === 'live' || status.feed === 'offline') return status.feed;
  if (status.connectedOnce) return 'reconnecting';
  return status.problem ? 'unreachable' : 'connecting';
}

export interface NetworkConnection {
  readonly network: Network;
  readonly status: MonitorStatus;
  readonly word: ConnectionWord;
}

export interface ConnectionSummary {
  readonly feed: ConnectionWord;
  readonly syncing: boolean;
  readonly problem: boolean;
  /** When the worst network's node is tried again (epoch ms), while a try waits. */
  readonly retryAt: number | null;
  /** The network whose state the header tells: the worst one. */
  readonly worst: Network;
  readonly networks: readonly NetworkConnection[];
}

export function summariseConnections(statuses: Statuses, online: boolean): ConnectionSummary | null {
  const networks = NETWORKS.flatMap((network): NetworkConnection[] => {
    const status = statuses[network];
    return status ? [{ network, status, word: connectionWord(status) }] : [];
  });
  const worst = networks.reduce<NetworkConnection | null>(
    (found, each) => (!found || SEVERITY[each.word] > SEVERITY[found.word] ? each : found),
    null,
  );
  if (!worst) return null;
  return {
    feed: online ? worst.word : 'offline',
    syncing: networks.some(({ status }) => status.syncing),
    // Something the node sent set aside is a problem too, though the connection lives.
    problem: networks.some(({ status }) => status.problem !== null || !!status.setAside),
    retryAt: worst.status.retryAt ?? null,
    worst: worst.network,
    networks,
  };
}

const HEADER_WORDS: Record<ConnectionWord, string> = {
  live: 'Live',
  connecting: 'Connecting',
  unreachable: 'Can’t reach node',
  reconnecting: 'Reconnecting',
  offline: 'Offline',
};

/** The words beside the header's dot: the state, then what goes on (a sync, a problem, or when the next try is). */
export function headerWords(summary: ConnectionSummary, now: number): string {
  // With two networks followed, the one not reached is named: the other may be fine.
  const lost = summary.networks.filter((network) => network.word === 'unreachable');
  const word =
    summary.feed === 'unreachable' && summary.networks.length > 1
      ? lost.length > 1
        ? 'Can’t reach either node'
        : `Can’t reach ${NETWORK_LABEL[summary.worst]}`
      : HEADER_WORDS[summary.feed];
  // Not reached: the problem is the word itself; what the user wants next is when it is tried again.
  if (summary.feed === 'unreachable') return summary.retryAt ? `${word}, ${nextTryWords(summary.retryAt, now)}` : word;
  return `${word}${summary.syncing ? ', syncing' : ''}${summary.problem ? ', a problem' : ''}`;
}

/** A network's state after its name in the connection panel ("Testnet not reached yet"). */
export const PANEL_WORDS: Record<ConnectionWord, string> = {
  live: 'live',
  connecting: 'connecting',
  unreachable: 'not reached yet',
  reconnecting: 'reconnecting',
  offline: 'offline',
};
