import { createContext, useContext, useMemo, useSyncExternalStore, type ReactNode } from 'react';
import { originOf } from '../domain/disclosure.ts';
import type { HostRecord } from '../domain/disclosure-record.ts';
import type { CurrentHosts } from '../domain/disclosure-text.ts';
import { NETWORKS } from '../domain/network.ts';
import { nodeFor } from '../chain/networks.ts';
import type { PrivacyRecord } from './privacy-record.ts';
import { useRelay } from './relay-context.tsx';
import { useNodeSettings } from './settings-context.tsx';
import { useRuntimeConfig } from './use-runtime-config.ts';

const PrivacyContext = createContext<PrivacyRecord | null>(null);

export function PrivacyProvider({ record, children }: { record: PrivacyRecord | undefined; children: ReactNode }) {
  return <PrivacyContext value={record ?? null}>{children}</PrivacyContext>;
}

const NO_SUBSCRIPTION = () => () => {};

/** The hosts contacted from this device, newest first (null where the app runs without a record), and how to clear. */
export function usePrivacyRecord(): { hosts: readonly HostRecord[]; clear: () => Promise<void> } | null {
  const record = useContext(PrivacyContext);
  const version = useSyncExternalStore(record?.subscribe ?? NO_SUBSCRIPTION, () => record?.version ?? 0);
  return useMemo(
    () => (record ? { hosts: record.hosts(), clear: () => record.clear() } : null),
    // `version` changes when the record does: the hosts are read again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [record, version],
  );
}

/** The hosts the app is set to use now (each network's node, the relay when on), null until the config is read. */
export function useCurrentHosts(): CurrentHosts | null {
  const runtime = useRuntimeConfig();
  const { choices } = useNodeSettings();
  const relay = useRelay();
  const relayUrl = relay?.settings.enabled ? relay.settings.url : null;
  return useMemo(() => {
    if (!runtime) return null;
    const nodes = NETWORKS.map((network) => {
      const node = nodeFor(network, runtime, choices);
      return { network, origin: originOf(node.url) ?? node.url, name: node.name };
    });
    return { nodes, relay: relayUrl ? originOf(relayUrl) : null };
  }, [runtime, choices, relayUrl]);
}
