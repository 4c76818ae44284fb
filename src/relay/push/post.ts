import { FENCED, httpPost, TIMEOUT_MS, type Post, type PushOutcome } from './http.ts';
import { pushRequest, type PushJob } from './post-request.ts';

/**
 * Encrypts and posts one push, unless its fence closed while it waited (`notAfter`, on `now`'s clock); rejects only
 * when it cannot be made (its keys unusable).
 */
export async function postPush(job: PushJob, post: Post = httpPost, now = Date.now): Promise<PushOutcome> {
  if (job.notAfter !== undefined && now() >= job.notAfter) return FENCED;
  return post(pushRequest(job));
}

/** Posts with a `fetch` (tests script the push service with one), redirects refused, within 15 s. */
export const fetchPost =
  (fetch: typeof globalThis.fetch): Post =>
  async (request) => {
    try {
      const response = await fetch(request.endpoint, {
        method: 'POST',
        headers: request.headers,
        body: request.body,
        redirect: 'error',
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      const retryAfter = response.headers.get('retry-after');
      await response.body?.cancel();
      return { status: response.status, retryAfter };
    } catch {
      return { status: 0, retryAfter: null };
    }
  };
