import { useCallback } from 'react';
import { nodeFor } from '../chain/networks.ts';
import { testConnection } from '../chain/page/test-connection.ts';
import type { Network } from '../domain/network.ts';
import { useNodeSettings } from './settings-context.tsx';
import { useRuntimeConfig } from './use-runtime-config.ts';

/** What the settings screen needs from the chain layer: the node in use per network, and a connection test. */
export function useNodeInfo(): {
  nodeUrl: ((network: Network) => string) | null;
  testConnection: typeof testConnection;
} {
  const runtime = useRuntimeConfig();
  const { choices } = useNodeSettings();
  const nodeUrl = useCallback(
    (network: Network) => (runtime ? nodeFor(network, runtime, choices).url : ''),
    [runtime, choices],
  );
  return { nodeUrl: runtime ? nodeUrl : null, testConnection };
}
