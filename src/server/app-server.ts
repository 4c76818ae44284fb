import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../chain/runtime-config.ts';
import { EDGE_OPTIONS, pathRefusal } from '../relay/api/edge-options.ts';
import { relayRoutes, type RelayApi } from '../relay/api/server.ts';
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
  /** The relay's API when this server runs one: null until the relay is ready (its routes answer 503 until then). */
  readonly relay: (() => RelayApi | null) | null;
  /** Tests ship a "new version" of a file this way. */
  readonly overrides?: ReadonlyMap<string, { readonly type: string; readonly body: string }>;
}

const TEXT = 'text/plain; charset=utf-8';

/**
 * The app and its relay on one origin (no CORS, and the relay needs nothing in the policy's connect-src), on
 * Fastify: the relay's routes mounted under /relay, the app's files beside them. Call `ready()` before listening.
 */
export function createAppServer(options: AppServerOptions): FastifyInstance {
  const app = Fastify(EDGE_OPTIONS);
  // The app's routes read no body; the relay's PUT has its own parser.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.addHook('onRequest', async (request, reply) => {
    reply.headers({
      'content-security-policy': options.contentSecurityPolicy,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    // The same path for this server, the proxy in front and the relay behind: never a host, never normalised.
    const refusal = pathRefusal(request.raw);
    if (refusal)
      return reply
        .code(400)
        .headers({ 'content-type': TEXT, 'cache-control': 'no-store' })
        .send(`Bad path: ${refusal}.\n`);
    return undefined;
  });
  app.setErrorHandler((error, _request, reply) => {
    console.error('server: a file could not be served', error);
    return reply.code(500).type(TEXT).send('The server could not read this file; try again.\n');
  });
  if (options.relay) void app.register(relayRoutes, { prefix: RELAY_PATH, api: options.relay });
  app.all(RUNTIME_CONFIG_PATH, async (request, reply) => sendConfig(reply, options.runtimeConfig(request.raw)));
  app.all('/*', async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const override = options.overrides?.get(pathname);
    if (override)
      return reply
        .code(200)
        .headers({ 'content-type': override.type, 'cache-control': 'no-cache' })
        .send(override.body);
    return serveStatic(options.root, pathname, request, reply);
  });
  return app;
}

function sendConfig(reply: FastifyReply, config: RuntimeConfig | null): FastifyReply {
  // No config: 204, which the app reads as "none here" as it reads a static host's 404, without the failed load a
  // browser reports in the console for every 404.
  if (!config) return reply.code(204).header('cache-control', 'no-store').send();
  // Built per request from its Host: a shared cache must never hand one origin's answer to another.
  return reply
    .code(200)
    .headers({ 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' })
    .send(JSON.stringify(config));
}
