import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
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
 * A request that is not HTTP/1.1 Node can read (a malformed request line, headers past Node's 16 kB): answered in the
 * relay's words before the connection is closed, as every other refusal is, not in Fastify's.
 */
function refuseUnreadable(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const body = JSON.stringify(
    tooLarge
      ? { error: 'headers_too_large', message: 'the request headers are larger than 16 kB' }
      : { error: 'bad_request', message: 'the request could not be read as HTTP/1.1' },
  );
  socket.end(
    `HTTP/1.1 ${tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `cache-control: no-store\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * The Fastify options both servers share (the relay on its own port, and the one-origin server that mounts it).
 * Paths are paths: no duplicate slash or trailing slash is folded into another route, matching is case-sensitive,
 * and a parameter is never cut short by the router (a too-long device id is answered 400 by the route, not 404).
 * `exposeHeadRoutes` is off: a route answers the methods it names and nothing else. No logger: the relay logs
 * its own structured lines. A request must have arrived whole within 30 s (a client that trickles a body holds no
 * socket and no memory for longer; Fastify's default is no limit at all); an idle kept-alive connection is kept
 * 72 s, past the 60 s a proxy's own idle limit usually is, so a proxy never reuses a connection this end closed.
 */
export const EDGE_OPTIONS = {
  logger: false,
  rewriteUrl: readPathFirst,
  bodyLimit: MAX_BODY_BYTES,
  requestTimeout: 30_000,
  keepAliveTimeout: 72_000,
  clientErrorHandler: refuseUnreadable,
  exposeHeadRoutes: false,
  routerOptions: {
    ignoreDuplicateSlashes: false,
    ignoreTrailingSlash: false,
    caseSensitive: true,
    maxParamLength: 16 * 1024,
  },
} as const;
