import { networkOfChainId, networkOfPoxContract, type NodeNetwork } from '../../domain/node-network.ts';
import type { Network } from '../../domain/network.ts';
import { platformFetch } from '../outbound.ts';
import { askNode } from './ask-node.ts';
import { isRecord } from '../../domain/is-record.ts';

/** Where a node says which chain it serves, and how to read it from the answer's body. */
const SOURCES: readonly { readonly path: string; readonly field: string; read(value: unknown): Network | null }[] = [
  // The PoX contract's deployer: the devnet answers this one too.
  { path: '/v2/pox', field: 'contract_id', read: networkOfPoxContract },
  { path: '/v2/info', field: 'network_id', read: networkOfChainId },
];

/**
 * Which network a node the user typed serves, asked before it is used: `/v2/pox` first, `/v2/info` when that does
 * not tell. A Stacks API whose core node is away answers both with 500; such a node, one that cannot be reached and
 * one that refuses the key are "unchecked", with why.
 */
export async function readNodeNetwork(
  url: string,
  apiKey: string | null,
  fetchImpl: typeof fetch = platformFetch,
): Promise<NodeNetwork> {
  const answers: string[] = [];
  for (const source of SOURCES) {
    const asked = await askNode(url, source.path, apiKey, fetchImpl);
    if (!asked.ok) return { kind: 'unchecked', trouble: asked.error };
    const response = asked.value;
    if (response.status === 401 || response.status === 403)
      return {
        kind: 'unchecked',
        trouble: { message: `${url} refused the request (${response.status}): check the API key.` },
      };
    const network = response.ok ? source.read(await fieldOf(response, source.field)) : null;
    if (network) return { kind: 'serves', network };
    answers.push(`${source.path} answered ${response.status}${response.ok ? ` without a known ${source.field}` : ''}`);
  }
  return {
    kind: 'unchecked',
    trouble: {
      message: `${url} answered, but not with the network it serves.`,
      detail: `Its ${answers.join('; its ')}.`,
    },
  };
}

async function fieldOf(response: Response, field: string): Promise<unknown> {
  try {
    const body: unknown = await response.json();
    return isRecord(body) ? body[field] : undefined;
  } catch {
    return undefined;
  }
}
