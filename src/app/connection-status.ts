import { useSyncExternalStore } from 'react';
import type { Network } from '../domain/network.ts';
import type { MonitorStatus } from '../monitor/network-monitor.ts';

/** Each network's monitor status, for the screens; written by the (lazily loaded) monitoring. */
export type Statuses = Readonly<Partial<Record<Network, MonitorStatus>>>;

let statuses: Statuses = {};
const listeners = new Set<() => void>();

export const statusBoard = {
  get: (): Statuses => statuses,
  set(network: Network, status: MonitorStatus | null): void {
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

export const useStatuses = (): Statuses => useSyncExternalStore(statusBoard.subscribe, statusBoard.get);
