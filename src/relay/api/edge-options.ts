import type { IncomingMessage } from 'node:http';
import { readRequestPath } from './request-path.ts';

export const MAX_BODY_BYTES = 256 * 1024;

const refusals = new WeakMap<IncomingMessage, string>();

/**
 * Fastify's `rewriteUrl`: every request target is read by `readRequestPath` before the router sees it, so this
 * server, a proxy's path matchers and a file lookup all judge the same path. A target that is not a plain path is
 * routed nowhere in particular ("/") and remembered: the first hook that may answer (after the rate limit on the
 * relay) refuses it with 400. Its text never reaches the router, which would decode, or refuse in its own words, a
 * broken `%` escape.
 */
function readPathFirst(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const target = readRequestPath(url);
  if (target.ok) return url;
  refusals.set(request, target.error);
  return '/';
}

/** A routed request's path within the API (without the prefix it is mounted under: `/relay` on the app's origin). */
export function pathWithin(url: string, prefix: string): string {
  const mark = url.indexOf('?');
  return (mark < 0 ? url : url.slice(0, mark)).slice(prefix.length) || '/';
}

/** A request's query, read after the first `?` as sent. */
export function queryOf(url: string): URLSearchParams {
  const mark = url.indexOf('?');
  return new URLSearchParams(mark < 0 ? '' : url.slice(mark + 1));
}

/** Why the request's path was refused before routing, or undefined for a plain path. */
export const pathRefusal = (request: IncomingMessage): string | undefined => refusals.get(request);

/**
 * The Fastify options both servers share (the relay on its own port, and the one-origin server that mounts it).
 * Paths are paths: no duplicate slash or trailing slash is folded into another route, matching is case-sensitive,
 * and a parameter is never cut short by the router (a too-long device id is answered 400 by the route, not 404).
 * `exposeHeadRoutes` is off: a route answers the methods it names and nothing else. No logger: the relay logs
 * its own structured lines.
 */
export const EDGE_OPTIONS = {
  logger: false,
  rewriteUrl: readPathFirst,
  bodyLimit: MAX_BODY_BYTES,
  exposeHeadRoutes: false,
  routerOptions: {
    ignoreDuplicateSlashes: false,
    ignoreTrailingSlash: false,
    caseSensitive: true,
    maxParamLength: 16 * 1024,
  },
} as const;
