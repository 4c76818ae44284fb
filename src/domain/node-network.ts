import { parsePrincipal } from './address/address.ts';
import type { Network } from './network.ts';

/**
 * Why something about a node could not be done, in a person's words; `detail` keeps the exact technical cause
 * (a status, a setting's name) for whoever runs the node or the app's server.
 */
export interface NodeTrouble {
  readonly message: string;
  readonly detail?: string;
  /** The page's own policy refused the request: the node was never asked, and never will be while it stands. */
  readonly blocked?: boolean;
}

/** What a node said about the chain it serves, or why it could not be asked. */
export type NodeNetwork =
  | { readonly kind: 'serves'; readonly network: Network }
  | { readonly kind: 'unchecked'; readonly trouble: NodeTrouble };

/** Chain ids as a node's `/v2/info` gives them in `network_id` (@stacks/network's ChainId). */
const CHAIN_IDS: Readonly<Record<number, Network>> = { 1: 'mainnet', 0x80000000: 'testnet' };

/** The network of a node's `/v2/info` `network_id`; null for any other value (not a Stacks chain id). */
export const networkOfChainId = (id: unknown): Network | null =>
  typeof id === 'number' ? (CHAIN_IDS[id] ?? null) : null;

/**
 * The network of a node's `/v2/pox` `contract_id` (`SP000000000000000000002Q6VF78.pox-4` on mainnet, `ST…` on
 * testnet and on devnets): the version byte of its deployer says it, as for any address. Null when it is not a
 * contract principal.
 */
export function networkOfPoxContract(contractId: unknown): Network | null {
  if (typeof contractId !== 'string') return null;
  const parsed = parsePrincipal(contractId);
  return parsed.ok && parsed.value.kind === 'contract' ? parsed.value.network : null;
}

/** The refusal when a node typed for one network serves the other, with what would be right. */
export const wrongNetworkMessage = (serves: Network, expected: Network): string =>
  `This node serves ${serves}; the ${expected} node must serve ${expected}. ` +
  `Enter a ${expected} node here, or set this one as the ${serves} node.`;

/**
 * Said beside a node that was kept though its network could not be read: why, and what to make sure of. A node the
 * app may not contact at all is told as that, the network being the least of it.
 */
export const uncheckedNetworkNote = (expected: Network, trouble: NodeTrouble): string =>
  trouble.blocked
    ? trouble.message
    : `${trouble.message} Which network it serves could not be checked: make sure it is a ${expected} node.`;
