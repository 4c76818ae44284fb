import { useCallback } from 'react';
import { resolveBnsName } from '../chain/bns.ts';
import { defaultNode } from '../chain/networks.ts';
import { runtimeConfig } from '../chain/runtime-config.ts';
import type { Principal } from '../domain/address.ts';
import type { Network } from '../domain/network.ts';
import type { Result } from '../domain/result.ts';

/**
 * Looks a BNS name up on the node of the chosen network; with no choice, on the local devnet when one runs next
 * to the app (its names are testnet names), else on mainnet, where `.btc` names live.
 */
export function useNameResolver(): (name: string, network: Network | null) => Promise<Result<Principal, string>> {
  return useCallback(async (name, network) => {
    const config = await runtimeConfig();
    const chosen: Network = network ?? (config.devnet ? 'testnet' : 'mainnet');
    return resolveBnsName(defaultNode(chosen, config).url, name, chosen);
  }, []);
}
