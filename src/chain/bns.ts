import { parsePrincipal, type Principal } from '../domain/address/address.ts';
import type { Network } from '../domain/network.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { platformFetch, sendRequest } from './outbound.ts';

/** Resolves a BNS name (`alice.btc`) to the address that owns it, through the node's `/v1/names/{name}`. */
export async function resolveBnsName(
  nodeUrl: string,
  name: string,
  network: Network,
  fetchImpl: typeof fetch = platformFetch,
): Promise<Result<Principal, string>> {
  let response: Response;
  try {
    response = await sendRequest('names', `${nodeUrl}/v1/names/${encodeURIComponent(name)}`, undefined, fetchImpl);
  } catch {
    return err(
      `The ${network} node could not be reached to look up ${name}. Check the connection, or enter the address.`,
    );
  }
  if (response.status === 404) return err(`No one owns the name ${name} on ${network}.`);
  if (!response.ok) return err(`The ${network} node answered ${response.status} when looking up ${name}.`);
  const body = (await response.json().catch(() => null)) as { address?: unknown } | null;
  const parsed = typeof body?.address === 'string' ? parsePrincipal(body.address, { network }) : null;
  if (!parsed?.ok) return err(`The node gave no valid ${network} address for ${name}.`);
  return ok(parsed.value);
}
