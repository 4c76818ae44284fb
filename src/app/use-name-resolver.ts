import { useCallback } from 'react';
import type { Principal } from '../domain/address/address.ts';
import type { Network } from '../domain/network.ts';
import type { Result } from '../domain/result.ts';
import { useNodeSettings } from './settings-context.tsx';

/**
 * Looks a BNS name up on the node of the chosen network; with no choice, on the local devnet when one runs next
 * to the app (its names are testnet names), else on mainnet, where `.btc` names live. The lookup code loads
 * when a name is first submitted: it is not needed to show the list.
 */
export function useNameResolver(): (name: string, network: Network | null) => Promise<Result<Principal, string>> {
  const { choices } = useNodeSettings();
  return useCallback(
    async (name, network) => {
      const [{ runtimeConfig }, { nodeFor }, { resolveBnsName }] = await Promise.all([
        import('../chain/page/runtime-config-load.ts'),
        import('../chain/networks.ts'),
        import('../chain/bns.ts'),
      ]);
      const config = await runtimeConfig();
      const chosen: Network = network ?? (config.devnet ? 'testnet' : 'mainnet');
      return resolveBnsName(nodeFor(chosen, config, choices).url, name, chosen);
    },
    [choices],
  );
}
