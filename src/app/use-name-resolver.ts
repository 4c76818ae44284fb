import { useCallback } from 'react';
import { resolveBnsName } from '../chain/bns.ts';
import { nodeFor } from '../chain/networks.ts';
import { runtimeConfig } from '../chain/runtime-config.ts';
import type { Principal } from '../domain/address.ts';
import type { Network } from '../domain/network.ts';
import type { Result } from '../domain/result.ts';
import { useNodeSettings } from './settings-context.tsx';

/**
 * Looks a BNS name up on the node of the chosen network; with no choice, on the local devnet when one runs next
 * to the app (its names are testnet names), else on mainnet, where `.btc` names live.
 */
export function useNameResolver(): (name: string, network: Network | null) => Promise<Result<Principal, string>> {
  const { choices } = useNodeSettings();
  return useCallback(
    async (name, network) => {
      const config = await runtimeConfig();
      const chosen: Network = network ?? (config.devnet ? 'testnet' : 'mainnet');
      const node = nodeFor(chosen, config, choices);
      return resolveBnsName(node.url, name, chosen);
    },
    [choices],
  );
}
