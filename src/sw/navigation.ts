/// <reference lib="webworker" />
import { matchPrecache } from 'workbox-precaching';

/** How long the refresh behind a navigation waits for the server's headers before it gives up until the next one. */
export const REFRESH_WAIT_MS = 30_000;

/** The headers the server decides per deployment (its CSP is built from its nodes when it starts). */
const LIVE_HEADERS = [
  'content-security-policy',
  'content-security-policy-report-only',
  'referrer-policy',
  'x-content-type-options',
];

/** Where the server's headers seen last are kept: a response with those headers and no body, under its own cache. */
const SEEN_CACHE = 'stacks-watch:server-headers';
const SEEN_KEY = '/__server-headers';

/**
 * Every in-app page (the list, /address/…) is the shell this worker's build precached, so that the app opens with
 * no network and a new version waits for "Reload". Its security headers, though, are the server's, not those of
 * install time: an operator who changes the nodes (and so the CSP's connect-src) and restarts moves installed apps to
 * the new nodes through the runtime config, and a policy frozen at install would refuse them. The shell opens at once
 * with the headers the server sent last (never waiting on the network), and the server is asked for its headers of
 * now behind it, for the next open; offline, slow, or answering anything but its page, the ones seen last stay.
 */
export async function navigationResponse(
  request: Request,
  waitUntil: (work: Promise<unknown>) => void,
): Promise<Response> {
  const shell = await matchPrecache('index.html');
  if (!shell) return fromOwnOrigin(request);
  waitUntil(refreshSeenHeaders(request.url));
  const seen = await seenHeaders();
  if (!seen) return shell;
  const headers = new Headers(shell.headers);
  for (const name of LIVE_HEADERS) {
    const value = seen.get(name);
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

async function seenHeaders(): Promise<Headers | null> {
  const kept = await caches.match(SEEN_KEY, { cacheName: SEEN_CACHE }).catch(() => undefined);
  return kept?.headers ?? null;
}

/** Asks the server for its page's headers and keeps those the app's shell takes from it. */
async function refreshSeenHeaders(url: string): Promise<void> {
  const live = await liveHeaders(url);
  if (!live) return;
  const kept = new Headers();
  for (const name of LIVE_HEADERS) {
    const value = live.get(name);
    if (value !== null) kept.set(name, value);
  }
  const cache = await caches.open(SEEN_CACHE);
  await cache.put(SEEN_KEY, new Response(null, { headers: kept }));
}

async function liveHeaders(url: string): Promise<Headers | null> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REFRESH_WAIT_MS);
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
    return isPage ? response.headers : null;
  } catch {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
