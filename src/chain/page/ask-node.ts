import type { NodeTrouble } from '../../domain/node-network.ts';
import { err, ok, type Result } from '../../domain/result.ts';
import { platformFetch, sendRequest } from '../outbound.ts';
import { policyRefusal, watchPolicyRefusal } from './policy-refusal.ts';

/** How long a node typed in Settings gets to answer one question. */
const ANSWER_WITHIN_S = 10;

/**
 * One GET from Settings to a node the user typed (Test connection, the network check): its answer, or why there
 * was none, in words: the page's own policy, no answer in time, or no connection at all.
 */
export async function askNode(
  url: string,
  path: string,
  apiKey: string | null,
  fetchImpl: typeof fetch = platformFetch,
): Promise<Result<Response, NodeTrouble>> {
  const policy = watchPolicyRefusal(url);
  try {
    const response = await sendRequest(
      'test',
      `${url}${path}`,
      { headers: apiKey ? { 'x-api-key': apiKey } : {}, signal: AbortSignal.timeout(ANSWER_WITHIN_S * 1000) },
      fetchImpl,
    );
    policy.stop();
    return ok(response);
  } catch (error) {
    if (await policy.refused()) return err(policyRefusal(url));
    if (error instanceof DOMException && error.name === 'TimeoutError')
      return err({ message: `${url} did not answer within ${ANSWER_WITHIN_S} s: check that the node is running.` });
    return err({
      message: `${url} cannot be reached: check the address, that the node is running, and that it allows this app (CORS).`,
    });
  }
}
