/// <reference lib="webworker" />
import { matchPrecache } from 'workbox-precaching';

/** How long a navigation waits for the server's headers before the shell opens with those it was installed with. */
export const POLICY_WAIT_MS = 3000;

/** The headers the server decides per deployment (its CSP is built from its nodes when it starts). */
const LIVE_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'referrer-policy',
  'x-content-type-options',
];

/**
 * Every in-app page (the list, /address/…) is the shell this worker's build precached, so that the app opens with
 * no network and a new version waits for "Reload". Its security headers, though, are the server's of now, not of
 * install time: an operator who changes the nodes (and so the CSP's connect-src) and restarts moves installed apps to
 * the new nodes through the runtime config at once, and a policy frozen in the cache would refuse them. So the
 * server is asked first, for at most POLICY_WAIT_MS; offline, slow, or answering anything but its page, the shell
 * opens as installed.
 */
export async function navigationResponse(request: Request): Promise<Response> {
  const shell = await matchPrecache('index.html');
  if (!shell) return fromOwnOrigin(request);
  const live = await liveShell(request.url);
  if (!live) return shell;
  const headers = new Headers(shell.headers);
  for (const name of LIVE_HEADERS) {
    const value = live.headers.get(name);
    if (value === null) headers.delete(name);
    else headers.set(name, value);
  }
  return new Response(shell.body, { status: shell.status, statusText: shell.statusText, headers });
}

/**
 * The app's own origin, which the privacy record does not list (it is not a third party), and which chain/outbound.ts
 * cannot reach from here: the service worker imports no chain/ code.
 */
// eslint-disable-next-line no-restricted-globals
const fromOwnOrigin = (input: RequestInfo, init?: RequestInit): Promise<Response> => fetch(input, init);

async function liveShell(url: string): Promise<Response | null> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), POLICY_WAIT_MS);
  try {
    const response = await fromOwnOrigin(url, {
      headers: { accept: 'text/html' },
      credentials: 'same-origin',
      // Past the HTTP cache: the headers are wanted as the server sends them now, not merged from a revalidation
      // into a stored copy; the page is a few kilobytes.
      cache: 'no-store',
      // A redirect (a captive portal's) is not this server's page.
      redirect: 'manual',
      signal: abort.signal,
    });
    // Only the headers are wanted: the page itself is the precached shell.
    void response.body?.cancel().catch(() => undefined);
    const isPage = response.ok && response.type === 'basic' && response.headers.get('content-type')?.includes('html');
    return isPage ? response : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
