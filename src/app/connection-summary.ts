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

/**
 * Offline, every network is offline, and that is all there is to say: no attempt, sync or node failure (each fails
 * for want of a network, the node not to blame) is told beside it.
 */
export function summariseConnections(statuses: Statuses, online: boolean): ConnectionSummary | null {
  const networks = NETWORKS.flatMap((network): NetworkConnection[] => {
    const status = statuses[network];
    return status ? [{ network, status, word: online ? connectionWord(status) : 'offline' }] : [];
  });
  const worst = networks.reduce<NetworkConnection | null>(
    (found, each) => (!found || SEVERITY[each.word] > SEVERITY[found.word] ? each : found),
    null,
  );
  if (!worst) return null;
  return {
    feed: worst.word,
    syncing: online && networks.some(({ status }) => status.syncing),
    // Something the node sent set aside is a problem too, though the connection lives.
    problem: online && networks.some(({ status }) => status.problem !== null || !!status.setAside),
    retryAt: online ? (worst.status.retryAt ?? null) : null,
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

/** A network's state after its name, where the header names each network ("Testnet live · Mainnet unreachable"). */
const NAMED_WORDS: Record<ConnectionWord, string> = {
  live: 'live',
  connecting: 'connecting',
  unreachable: 'unreachable',
  reconnecting: 'reconnecting',
  offline: 'offline',
};

/** The words beside the header's dot: the state, then what goes on (a sync, a problem, or when the next try is). */
export function headerWords(summary: ConnectionSummary, now: number): string {
  const next = summary.retryAt ? `, ${nextTryWords(summary.retryAt, now)}` : '';
  // Networks in different states are each named, the worst last with its next try: one is not down for both.
  const states = new Set(summary.networks.map((network) => network.word));
  if (summary.feed !== 'offline' && states.size > 1) {
    const named = [...summary.networks]
      .sort((a, b) => SEVERITY[a.word] - SEVERITY[b.word])
      .map(({ network, word }) => `${NETWORK_LABEL[network]} ${NAMED_WORDS[word]}`)
      .join(' · ');
    return summary.feed === 'unreachable' || summary.feed === 'reconnecting' ? `${named}${next}` : named;
  }
  const word =
    summary.feed === 'unreachable' && summary.networks.length > 1
      ? 'Can’t reach either node'
      : HEADER_WORDS[summary.feed];
  // Not reached: the problem is the word itself; what the user wants next is when it is tried again. Lost after it
  // lived and failing again likewise ("Reconnecting, next try in 12 s"), rather than "Reconnecting, a problem".
  if (summary.feed === 'unreachable' || (summary.feed === 'reconnecting' && next && onlyTheNode(summary)))
    return `${word}${next}`;
  return `${word}${summary.syncing ? ', syncing' : ''}${summary.problem ? ', with a problem' : ''}`;
}

/** Whether the one problem there is, is the worst network's node not answering (nothing the nodes sent set aside). */
const onlyTheNode = ({ networks, worst }: ConnectionSummary): boolean =>
  networks.every(({ network, status }) => !status.setAside && (network === worst) === (status.problem !== null));

/**
 * A network's state after its name in the connection panel ("Testnet unreachable, trying again…"). A node that does
 * not answer is tried again, never "syncing": there is nothing to sync from. Offline, nothing else is said.
 */
export function panelWords({ word, status }: NetworkConnection): string {
  if (word === 'offline') return 'offline';
  if (!status.syncing) return word;
  return word === 'unreachable' ? 'unreachable, trying again…' : `${word}, syncing`;
}
