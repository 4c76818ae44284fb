import { createStore } from '../domain/create-store.ts';
import type { Network } from '../domain/network.ts';
import type { Away } from '../domain/state/freshness.ts';
import type { MonitorStatus } from '../monitor/monitor-status.ts';
import { useStore } from './use-store.ts';

/** Each network's monitor status, for the screens; written by the (lazily loaded) monitoring. */
export type Statuses = Readonly<Partial<Record<Network, MonitorStatus>>>;

const statuses = createStore<Statuses>({});
let channel: BroadcastChannel | null = null;

export const statusBoard = {
  get: statuses.get,
  subscribe: statuses.subscribe,
  /** Set by the tab that runs the engine; the others receive it. */
  set(network: Network, status: MonitorStatus | null): void {
    channel?.postMessage({ network, status });
    statusBoard.receive(network, status);
  },
  share(shared: BroadcastChannel): void {
    channel = shared;
    shared.addEventListener(
      'message',
      (event: MessageEvent<{ network: Network; status: MonitorStatus | null } | 'hello'>) => {
        // A tab that just opened asks for what is known; it is told again.
        if (event.data === 'hello')
          for (const [network, status] of Object.entries(statuses.get())) shared.postMessage({ network, status });
        else statusBoard.receive(event.data.network, event.data.status);
      },
    );
    shared.postMessage('hello');
  },
  receive(network: Network, status: MonitorStatus | null): void {
    statuses.update((current) => {
      const next = { ...current };
      if (status) next[network] = status;
      else delete next[network];
      return next;
    });
  },
};

/** Whether a network's figures are being kept current by its realtime feed (what "live" means for freshness). */
export const isLive = (statuses: Statuses, network: Network): boolean => statuses[network]?.feed === 'live';

/** Whether a node failed its last try with no live feed meanwhile: what its trouble line tells (node-trouble-lines). */
export const nodeAway = (status: MonitorStatus | undefined): boolean =>
  status !== undefined && status.problem !== null && status.feed !== 'live';

/**
 * Why a network's node cannot be reached now, for the freshness words: the device is offline, the node is away (as
 * its trouble line says), or its live feed was lost and is reconnecting; null while nothing says it cannot.
 */
export function awayOf(statuses: Statuses, network: Network, online: boolean): Away | null {
  const status = statuses[network];
  if (!online) return 'offline';
  if (nodeAway(status)) return 'unreachable';
  return status?.connectedOnce && status.feed !== 'live' ? 'reconnecting' : null;
}

export const useStatuses = (): Statuses => useStore(statuses);
