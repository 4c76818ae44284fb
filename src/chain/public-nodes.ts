import { STACKS_MAINNET, STACKS_TESTNET } from '@stacks/network';
import type { Network } from '../domain/network.ts';

/**
 * The public nodes (Hiro's API, as @stacks/network names them): the app's default node for each network, the
 * policy's connect-src, and the nodes a relay follows when it is given none.
 */
export const PUBLIC_NODES: Record<Network, string> = {
  mainnet: STACKS_MAINNET.client.baseUrl,
  testnet: STACKS_TESTNET.client.baseUrl,
};
