import { useSyncExternalStore } from 'react';
import type { Network } from '../domain/network.ts';
import type { MonitorStatus } from '../monitor/network-monitor.ts';

/** Each network's monitor status, for the screens; written by the (lazily loaded) monitoring. */
export type Statuses = Readonly<Partial<Record<Network, MonitorStatus>>>;

let statuses: Statuses = {};
const listeners = new Set<() => void>();
let channel: BroadcastChannel | null = null;

export const statusBoard = {
  get: (): Statuses => statuses,
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
          for (const [network, status] of Object.entries(statuses)) shared.postMessage({ network, status });
        else statusBoard.receive(event.data.network, event.data.status);
      },
    );
    shared.postMessage('hello');
  },
  receive(network: Network, status: MonitorStatus | null): void {
    const next = { ...statuses };
    if (status) next[network] = status;
    else delete next[network];
    statuses = next;
    listeners.forEach((listener) => listener());
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Whether a network's figures are being kept current by its realtime feed (what "live" means for freshness). */
export const isLive = (statuses: Statuses, network: Network): boolean => statuses[network]?.feed === 'live';

export const useStatuses = (): Statuses => useSyncExternalStore(statusBoard.subscribe, statusBoard.get);
