import { err, ok, type Result } from '../../domain/result.ts';
import { decodeStatus } from '../decode.ts';
import { platformFetch, sendRequest } from '../outbound.ts';
import { policyRefusalMessage, watchPolicyRefusal } from './policy-refusal.ts';

/** Reads `/extended` from a node the user entered: is it there, and is it a Stacks Blockchain API? */
export async function testConnection(
  url: string,
  apiKey: string | null,
  fetchImpl: typeof fetch = platformFetch,
): Promise<Result<{ height: number; version: string }, string>> {
  let response: Response;
  const policy = watchPolicyRefusal(url);
  try {
    response = await sendRequest(
      'test',
      `${url}/extended`,
      { headers: apiKey ? { 'x-api-key': apiKey } : {}, signal: AbortSignal.timeout(10_000) },
      fetchImpl,
    );
  } catch {
    if (await policy.refused()) return err(policyRefusalMessage(url));
    return err(
      `${url} cannot be reached: check the address, that the node is running, and that it allows this app (CORS).`,
    );
  }
  policy.stop();
  if (response.status === 401 || response.status === 403)
    return err(`${url} refused the request (${response.status}): check the API key.`);
  if (!response.ok)
    return err(`${url} answered ${response.status} for /extended: it does not look like a Stacks Blockchain API node.`);
  try {
    const body: unknown = await response.json();
    const { height } = decodeStatus(body);
    const version = String((body as { server_version?: unknown }).server_version ?? 'unknown version');
    return ok({ height, version });
  } catch {
    return err(`${url} answered, but not like a Stacks Blockchain API node (its /extended has no chain tip).`);
  }
}
