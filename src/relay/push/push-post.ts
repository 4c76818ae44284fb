import { pushRequest, type PushJob } from './push-request.ts';

const TIMEOUT_MS = 15_000;

/** The push service's answer: its status (0 when it could not be reached) and any Retry-After. */
export interface PushOutcome {
  readonly status: number;
  readonly retryAfter: string | null;
}

/** Encrypts and posts one push; redirects are refused (the endpoint was validated, where it points was not). */
export async function postPush(job: PushJob, fetch: typeof globalThis.fetch): Promise<PushOutcome> {
  const request = pushRequest(job);
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
}
