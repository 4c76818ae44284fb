import { useMemo } from 'react';
import { nodeFor } from '../chain/networks.ts';
import { originOf } from '../domain/privacy/disclosure.ts';
import type { CurrentHosts } from '../domain/privacy/disclosure-text.ts';
import { NETWORKS } from '../domain/network.ts';
import { useRelay } from './relay-context.tsx';
import { useNodeSettings } from './settings-context.tsx';
import { useRuntimeConfig } from './use-runtime-config.ts';

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
