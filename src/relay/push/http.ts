import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { PushRequest } from './post-request.ts';

/** The push service's answer: its status (0 when it could not be reached) and any Retry-After. */
export interface PushOutcome {
  readonly status: number;
  readonly retryAfter: string | null;
  /** Not posted: its sender's fence had closed by the time it would have left (see `PushJob.notAfter`). */
  readonly fenced?: true;
}

/** Sends one encrypted push and reports the service's answer; never rejects. */
export type Post = (request: PushRequest) => Promise<PushOutcome>;

export const TIMEOUT_MS = 15_000;

/** Not posted: its sender's fence had closed (see `PushJob.notAfter`). */
export const FENCED: PushOutcome = { status: 0, retryAfter: null, fenced: true };

/** What `fetch` with `redirect: 'error'` refuses to follow. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Connections kept open between pushes to the same push service (a few services take nearly every push). */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

/**
 * Posts one push with node:http(s): about a third of the CPU of `fetch` (undici) a request, which at hundreds of
 * pushes a second is more than their encryption. As before with `fetch`: a redirect is not followed and counts as
 * a failure to reach the service (the endpoint was validated, where it points was not), and the whole exchange
 * must end within 15 s. Status 0: the service could not be reached.
 *
 * The deadline is checked after the thread has read what arrived meanwhile: a thread that could not run for a while
 * (a loaded machine) wakes with its timer due and the answer waiting in the socket, and Node runs timers before it
 * reads sockets. Giving up then made an accepted push look unanswered, and it was sent again.
 */
export const httpPost: Post = (push) => postWithin(push, TIMEOUT_MS);

/** `httpPost` with its deadline given (tests shorten it). */
export const postWithin = (push: PushRequest, timeoutMs: number): Promise<PushOutcome> =>
  postUntil(push, performance.now() + timeoutMs);

/**
 * A connection kept open that the service had closed as idle while the push was being written to it: the service
 * read none of it (it closes only a connection with no request in it), so the push is posted again on another
 * connection, within the same deadline. Given up as unanswered, the push counted as one that may still arrive late,
 * and its alert's next state was pushed twice to be sure it stays the last (sender.ts).
 */
const closedWhileIdle = (request: ClientRequest, error: NodeJS.ErrnoException): boolean =>
  request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE');

const postUntil = (push: PushRequest, deadline: number): Promise<PushOutcome> => {
  const https = push.endpoint.startsWith('https:');
  return new Promise((resolve) => {
    /** The status line and headers, once they arrived: an answer, even if its body has not ended yet. */
    let heard: PushOutcome | null = null;
    let settled = false;
    const settle = (outcome: PushOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const answered = (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const outcome = {
        status: REDIRECTS.has(status) ? 0 : status,
        retryAfter: response.headers['retry-after'] ?? null,
      };
      heard = outcome;
      response.resume();
      response.once('end', () => settle(outcome));
      // Cut off before its end (a reset): not an answer.
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
    // Its events all come later (the next turn at the soonest): `settle` never runs before this is set. The deadline
    // is checked after the sockets are read (setImmediate runs after the poll phase): an answer that came is taken.
    const timer = setTimeout(
      () => setImmediate(() => (heard ? settle(heard) : request.destroy(new Error('timed out')))),
      Math.max(0, deadline - performance.now()),
    );
    request.once('error', (error: NodeJS.ErrnoException) => {
      if (settled) return;
      if (heard || !closedWhileIdle(request, error) || performance.now() >= deadline) {
        return settle({ status: 0, retryAfter: null });
      }
      settled = true;
      clearTimeout(timer);
      // Its sender's fence closed meanwhile: handed back unposted, as a push that waited on a busy thread is.
      if (push.notAfter !== undefined && Date.now() >= push.notAfter) resolve(FENCED);
      else resolve(postUntil(push, deadline));
    });
    request.end(push.body);
  });
};
