import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import { RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../chain/runtime-config.ts';
import { readRequestPath } from '../relay/api/request-path.ts';
import { serveStatic } from './static-files.ts';

/** Where the relay's API answers on the app's origin: `<origin>/relay/v1/…`, `<origin>/relay/health`. */
export const RELAY_PATH = '/relay';

export interface AppServerOptions {
  /** The built app (dist/). */
  readonly root: string;
  /** The Content Security Policy, built once at start from the server's configuration. */
  readonly contentSecurityPolicy: string;
  /** The runtime config for this request (its relay URL is on the origin the request came to), or none. */
  readonly runtimeConfig: (request: IncomingMessage) => RuntimeConfig | null;
  /** The relay's API, when this server runs one. */
  readonly relay: RequestListener | null;
  /** Tests ship a "new version" of a file this way. */
  readonly overrides?: ReadonlyMap<string, { readonly type: string; readonly body: string }>;
}

/** The app and its relay on one origin: no CORS, and the relay needs nothing in the policy's connect-src. */
export function createAppServer(options: AppServerOptions): Server {
  return createServer((request, response) => {
    securityHeaders(response, options.contentSecurityPolicy);
    // The same path for this server, the proxy in front and the relay behind: never a host, never normalised.
    const target = readRequestPath(request.url ?? '/');
    if (!target.ok) {
      response.writeHead(400, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
      return void response.end(`Bad path: ${target.error}.\n`);
    }
    const pathname = target.value.path;
    if (options.relay && (pathname === RELAY_PATH || pathname.startsWith(`${RELAY_PATH}/`))) {
      const query = (request.url ?? '').slice(pathname.length);
      request.url = (pathname.slice(RELAY_PATH.length) || '/') + query;
      return options.relay(request, response);
    }
    if (pathname === RUNTIME_CONFIG_PATH) return sendConfig(response, options.runtimeConfig(request));
    const override = options.overrides?.get(pathname);
    if (override) {
      response.writeHead(200, { 'content-type': override.type, 'cache-control': 'no-cache' });
      return void response.end(override.body);
    }
    serveStatic(options.root, pathname, request, response).catch((error: unknown) => {
      console.error('server: a file could not be served', error);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('The server could not read this file; try again.\n');
    });
  });
}

function securityHeaders(response: ServerResponse, policy: string): void {
  response.setHeader('content-security-policy', policy);
  response.setHeader('x-content-type-options', 'nosniff');
  response.setHeader('referrer-policy', 'no-referrer');
}

function sendConfig(response: ServerResponse, config: RuntimeConfig | null): void {
  // No config: 204, which the app reads as "none here" as it reads a static host's 404, without the failed load a
  // browser reports in the console for every 404.
  if (!config) {
    response.writeHead(204, { 'cache-control': 'no-store' });
    return void response.end();
  }
  // Built per request from its Host: a shared cache must never hand one origin's answer to another.
  response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  response.end(JSON.stringify(config));
}
