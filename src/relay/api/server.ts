import type { BlockList } from 'node:net';
import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { EngineControl } from '../engine/control.ts';
import type { Log } from '../log.ts';
import type { Database } from '../storage/sql.ts';
import { RegistrationGuard, type RegistrationCaps } from './caps.ts';
import { clientAddress } from './client-address.ts';
import { clientKey } from './client-key.ts';
import { deviceRoutes } from './device-routes.ts';
import { EDGE_OPTIONS, pathRefusal, pathWithin, queryOf } from './edge-options.ts';
import { errorHandler, HttpError, send, type Answer } from './http-error.ts';
import { RateLimit } from './rate-limit.ts';
import { OPENAPI_PATH, openApiDocument, VAPID_KEY_SCHEMA } from './openapi.ts';

export { MAX_BODY_BYTES } from './edge-options.ts';
export type { Answer } from './http-error.ts';

const OPENAPI_DOCUMENT = openApiDocument('1.0.0');

export interface ApiOptions {
  readonly db: Database;
  readonly engine: EngineControl;
  readonly vapidPublicKey: string;
  /** Origins allowed by CORS (the app's). */
  readonly appOrigins: readonly string[];
  /** Push endpoints' origins allowed beyond the browsers' push services (a local stand-in). */
  readonly pushAllow: readonly string[];
  readonly requestsPerMinute?: number;
  /** Proxies whose X-Forwarded-For names the client (`--trust-proxy`); none: the socket's peer is the client. */
  readonly trustedProxies?: BlockList | null;
  readonly caps?: RegistrationCaps;
  readonly now?: () => number;
  readonly log?: Log;
  /** Health, metrics and admin routes (ops-routes.ts); null for paths they do not serve. */
  readonly ops?: (
    request: IncomingMessage,
    path: string,
    method: string,
    query: URLSearchParams,
  ) => Promise<Answer | null>;
}

/** A ready relay's API: its options, and the limits it keeps between requests. */
export interface RelayApi {
  readonly options: ApiOptions;
  readonly limit: RateLimit;
  readonly guard: RegistrationGuard;
  readonly now: () => number;
}

export function relayApi(options: ApiOptions): RelayApi {
  return {
    options,
    limit: new RateLimit(options.requestsPerMinute ?? 120, options.now),
    guard: new RegistrationGuard(options.db, options.caps),
    now: options.now ?? Date.now,
  };
}

/** The path within the API and its query. */
const target = (app: FastifyInstance, request: FastifyRequest) => ({
  path: pathWithin(request.url, app.prefix),
  query: queryOf(request.url),
});

/**
 * The relay's HTTP API (see the relay contract) as a Fastify plugin: JSON in and out, every refusal a clear 4xx in
 * one shape. `api` is null until the relay is ready: the port is bound first, and every request is answered 503
 * until then. The hooks run in the documented order: CORS headers, the rate limit, the path, OPTIONS; then routes.
 */
export async function relayRoutes(app: FastifyInstance, { api }: { api: () => RelayApi | null }): Promise<void> {
  /** The ready relay; before it is, every request is answered 503 (the first hook asks for it). */
  const ready = (): RelayApi => {
    const live = api();
    if (!live) throw new HttpError(503, 'starting', 'the relay is starting', { 'retry-after': '2' });
    return live;
  };
  app.setErrorHandler(errorHandler(() => api()?.options.log));
  // No route but a device's PUT reads a body (device-routes.ts gives that one its parser).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
  app.addHook('onRequest', async (request, reply) => {
    const { options, limit } = ready();
    const origin = request.headers.origin;
    if (origin && options.appOrigins.includes(origin))
      reply.headers({
        'access-control-allow-origin': origin,
        vary: 'origin',
        'access-control-allow-methods': 'GET, PUT, DELETE',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
      });
    const wait = limit.take(clientKey(clientAddress(request.raw, options.trustedProxies ?? null)));
    if (wait > 0)
      throw new HttpError(429, 'rate_limited', `too many requests from this address; try again in ${wait} s`, {
        'retry-after': String(wait),
      });
    const refusal = pathRefusal(request.raw);
    if (refusal) throw new HttpError(400, 'bad_path', `${refusal}; send the route's path as written`);
    if (request.method === 'OPTIONS') return send(reply, [204, null]);
    return undefined;
  });

  const opsRoute = async (request: FastifyRequest, reply: FastifyReply) => {
    const { path, query } = target(app, request);
    const answer = await ready().options.ops?.(request.raw, path, request.method, query);
    if (answer) return send(reply, answer);
    if (path === '/health' && request.method === 'GET')
      return send(reply, [200, { ok: true, networks: ready().options.engine.health() }]);
    throw notFound(app, request);
  };
  for (const url of ['/health', '/health/live', '/health/ready', '/metrics']) app.get(url, opsRoute);
  app.all('/admin/*', opsRoute);
  app.get('/v1/vapid-public-key', { schema: { response: { 200: VAPID_KEY_SCHEMA } } }, async (_request, reply) =>
    send(reply, [200, { publicKey: ready().options.vapidPublicKey }]),
  );
  app.get(OPENAPI_PATH, async (_request, reply) => send(reply, [200, OPENAPI_DOCUMENT]));
  await deviceRoutes(app, { api: ready });
  // Every other path is the relay's 404, also under a prefix (a catch-all beside it must not serve `/relay/x`).
  const nowhere = async (request: FastifyRequest) => {
    throw notFound(app, request);
  };
  app.all('/', nowhere);
  app.all('/*', nowhere);
  app.setNotFoundHandler(nowhere);
}

const notFound = (app: FastifyInstance, request: FastifyRequest) =>
  new HttpError(404, 'not_found', `no such route: ${request.method} ${target(app, request).path}`);

/** The relay on a port of its own: the API at the root, answering 503 until `api` gives the ready relay. */
export function createApiServer(api: () => RelayApi | null): FastifyInstance {
  const app = Fastify(EDGE_OPTIONS);
  void app.register(relayRoutes, { api });
  return app;
}
