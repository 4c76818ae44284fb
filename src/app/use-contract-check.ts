import { useCallback } from 'react';
import type { Network } from '../domain/network.ts';
import type { ContractPresence } from '../chain/contract-check.ts';
import { useNodeSettings } from './settings-context.tsx';

/**
 * Checks with the network's node (as Settings choose it) whether a contract is deployed at a contract principal.
 * The code loads when a contract principal is first submitted: it is not needed to show the list.
 */
export function useContractCheck(): (contractId: string, network: Network) => Promise<ContractPresence> {
  const { choices } = useNodeSettings();
  return useCallback(
    async (contractId, network) => {
      const [{ runtimeConfig }, { nodeFor }, { contractPresence }] = await Promise.all([
        import('../chain/page/runtime-config-load.ts'),
        import('../chain/networks.ts'),
        import('../chain/contract-check.ts'),
      ]);
      return contractPresence(nodeFor(network, await runtimeConfig(), choices).url, contractId);
    },
    [choices],
  );
}
