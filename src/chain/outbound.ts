import type { Outbound, Purpose } from '../domain/privacy/disclosure.ts';

/**
 * Where the app's requests leave: every adapter sends through `sendRequest` (HTTP) or tells `sent` (a socket
 * message), so that what each host is told is recorded where it happens, not inferred. The one module of the page
 * that names `fetch` (a lint rule says so). Listeners must not throw; a failing one is reported and skipped.
 */
type Listener = (outbound: Outbound) => void;

const listeners = new Set<Listener>();

export function listenToOutbound(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Tells the listeners what is being sent now. */
export function sent(outbound: Outbound): void {
  for (const listener of listeners)
    try {
      listener(outbound);
    } catch (error) {
      console.warn('Could not record a request', error);
    }
}

/** The platform's fetch, looked up at call time (tests replace it). */
export const platformFetch: typeof fetch = (...args) => globalThis.fetch(...args);

/**
 * Sends an HTTP request with `fetchImpl`, telling the listeners where it went, what its body said, and whether it
 * was answered: one that failed without an answer (no network, a name that did not resolve, a refused connection,
 * the page's policy) never reached the host as far as the page can tell, and is told as tried, not as sent; one given
 * up on (its signal aborted) may have, and says so (`gaveUp`). A
 * `Request` with a body is read from a clone (the app's own requests carry theirs in `init`).
 */
export async function sendRequest(
  purpose: Purpose,
  input: Request | string,
  init?: RequestInit,
  fetchImpl: typeof fetch = platformFetch,
): Promise<Response> {
  const url = typeof input === 'string' ? input : input.url;
  let body: string | null = bodyText(init?.body);
  if (body === null && typeof input !== 'string' && input.body !== null) body = await input.clone().text();
  const signal = init?.signal ?? (typeof input === 'string' ? undefined : input.signal);
  const aborted = () => signal?.aborted === true;
  // Aborted before it left, it never did: no more than a request that failed.
  const sentOff = !aborted();
  let response: Response;
  try {
    response = await (init === undefined ? fetchImpl(input) : fetchImpl(input, init));
  } catch (error) {
    // Given up on (its signal aborted: a timeout, a cancel) rather than failed: it may have reached the host.
    const gaveUp = sentOff && aborted();
    sent({ via: 'http', url, body, purpose, answered: false, ...(gaveUp ? { gaveUp } : {}) });
    throw error;
  }
  sent({ via: 'http', url, body, purpose, answered: true });
  return response;
}

function bodyText(body: RequestInit['body']): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body;
  if (body instanceof URLSearchParams) return body.toString();
  // The app sends no binary or form bodies; were one added, it is recorded as unreadable rather than not at all.
  return '[a body that is not text]';
}
