import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { PushRequest } from './post-request.ts';

/** The push service's answer: its status (0 when it could not be reached) and any Retry-After. */
export interface PushOutcome {
  readonly status: number;
  readonly retryAfter: string | null;
}

/** Sends one encrypted push and reports the service's answer; never rejects. */
export type Post = (request: PushRequest) => Promise<PushOutcome>;

export const TIMEOUT_MS = 15_000;

/** What `fetch` with `redirect: 'error'` refuses to follow. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Connections kept open between pushes to the same push service (a few services take nearly every push). */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * Posts one push with node:http(s): about a third of the CPU of `fetch` (undici) a request, which at hundreds of
 * pushes a second is more than their encryption. As before with `fetch`: a redirect is not followed and counts as
 * a failure to reach the service (the endpoint was validated, where it points was not), and the whole exchange
 * must end within 15 s. Status 0: the service could not be reached.
 */
export const httpPost: Post = (push) => {
  const https = push.endpoint.startsWith('https:');
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PushOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const answered = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const retryAfter = response.headers['retry-after'] ?? null;
      response.resume();
      response.once('end', () => settle({ status: REDIRECTS.has(status) ? 0 : status, retryAfter }));
      // Cut off before its end (the timeout, a reset): not an answer.
      response.once('close', () => settle({ status: 0, retryAfter: null }));
    };
    const options = {
      method: 'POST',
      headers: { ...push.headers, 'Content-Length': String(push.body.byteLength) },
      agent: https ? agents.https : agents.http,
    };
    let request: ReturnType<typeof httpRequest>;
    try {
      request = https ? httpsRequest(push.endpoint, options, answered) : httpRequest(push.endpoint, options, answered);
    } catch {
      // A request that cannot even be made (fetch rejects it the same way): not reached.
      return resolve({ status: 0, retryAfter: null });
    }
    // Its events all come later (the next turn at the soonest): `settle` never runs before this is set.
    const timer = setTimeout(() => request.destroy(new Error('timed out')), TIMEOUT_MS);
    request.once('error', () => settle({ status: 0, retryAfter: null }));
    request.end(push.body);
  });
};
