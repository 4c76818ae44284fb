import { useCallback } from 'react';
import { nodeFor } from '../chain/networks.ts';
import { readNodeNetwork } from '../chain/page/node-network.ts';
import { testConnection } from '../chain/page/test-connection.ts';
import type { Network } from '../domain/network.ts';
import { useNodeSettings } from './settings-context.tsx';
import { useRuntimeConfig } from './use-runtime-config.ts';

/**
 * What the settings screen needs from the chain layer: the node in use per network, a connection test, and the
 * network a node serves.
 */
export function useNodeInfo(): {
  nodeUrl: ((network: Network) => string) | null;
  testConnection: typeof testConnection;
  readNodeNetwork: typeof readNodeNetwork;
} {
  const runtime = useRuntimeConfig();
  const { choices } = useNodeSettings();
  const nodeUrl = useCallback(
    (network: Network) => (runtime ? nodeFor(network, runtime, choices).url : ''),
    [runtime, choices],
  );
  return { nodeUrl: runtime ? nodeUrl : null, testConnection, readNodeNetwork };
}
