import type { TokenMetadata } from '../domain/state/snapshot.ts';
import { decodeTokenMetadata } from './decode.ts';
import type { NodeRest } from './node-rest.ts';
import { object } from './payload.ts';

/** A token's name, symbol and decimals from the token metadata API; null when the node does not know it. */
export async function readTokenMetadata(rest: NodeRest, contractId: string): Promise<TokenMetadata | null> {
  const body = await rest.getUntyped('tokens', `/metadata/v1/ft/${encodeURIComponent(contractId)}`);
  return body === null ? null : decodeTokenMetadata(body);
}

/** The BNS name an address owns (its first), null when none: `/v1/addresses/stacks/{address}`. */
export async function readBnsName(rest: NodeRest, address: string): Promise<string | null> {
  const answer = await rest.getUntyped('names', `/v1/addresses/stacks/${encodeURIComponent(address)}`);
  if (answer === null) return null;
  const names = object(answer, '$').at('names').value;
  if (!Array.isArray(names)) return null;
  const first: unknown = names[0];
  return typeof first === 'string' && /^[a-z0-9_.-]{1,64}$/.test(first) ? first : null;
}
