import { platformFetch, sendRequest } from './outbound.ts';

/** Whether a contract is deployed at a contract principal; `unknown` when the node could not say. */
export type ContractPresence = 'deployed' | 'missing' | 'unknown';

/**
 * Asks the node for the contract (`/extended/v1/contract/{id}`: 404 where nothing was deployed). A node that
 * cannot be reached or answers otherwise leaves it unknown: that is no reason to refuse the address.
 */
export async function contractPresence(
  nodeUrl: string,
  contractId: string,
  fetchImpl: typeof fetch = platformFetch,
): Promise<ContractPresence> {
  try {
    const response = await sendRequest(
      'chain',
      `${nodeUrl}/extended/v1/contract/${encodeURIComponent(contractId)}`,
      undefined,
      fetchImpl,
    );
    return response.ok ? 'deployed' : response.status === 404 ? 'missing' : 'unknown';
  } catch {
    return 'unknown';
  }
}
