import type { BlockList } from 'node:net';
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { EngineControl } from '../engine/control.ts';
import type { Log } from '../log.ts';
import { alertsAfter, lastCursor } from '../storage/deliveries.ts';
import { checkIn, deleteDevice, findDevice, putDevice } from '../storage/devices.ts';
import type { Database } from '../storage/sql.ts';
import { RegistrationGuard, type CapRefusal, type RegistrationCaps } from './caps.ts';
import { clientAddress } from './client-address.ts';
import { clientKey } from './client-key.ts';
import { DEVICE_ID, DEVICE_SECRET } from '../../domain/relay/device-schema.ts';
import { describeIssue, type WireIssue } from '../../domain/relay/wire-schema.ts';
import { readDeviceRequest } from './device-request.ts';
import { RateLimit } from './rate-limit.ts';
import { OPENAPI_PATH, openApiDocument } from './openapi.ts';
import { readRequestPath } from './request-path.ts';
import { servedWatches } from './served-watches.ts';
import { bearerToken, hashSecret, secretMatches } from './secrets.ts';

export const MAX_BODY_BYTES = 256 * 1024;
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

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    /** The request field that was wrong (a JSON Pointer without its leading slash), for a 400 about the body. */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A 400 naming the field and what was expected: `watches/3/principal: not a testnet address …`. */
const invalid = (code: string, wrong: WireIssue) => new HttpError(400, code, describeIssue(wrong), {}, wrong.field);

const UNAUTHORIZED = new HttpError(
  401,
  'unauthorized',
  'this device id and secret do not match a device; send "Authorization: Bearer <the secret chosen when the device was created>"',
);

/** The relay's HTTP API (see the relay contract): JSON in and out, every refusal a clear 4xx. */
export const createApi = (options: ApiOptions): Server => createServer(apiHandler(options));

/** The API as a request listener, for a server that mounts it beside the app (src/server/). */
export function apiHandler(options: ApiOptions): RequestListener {
  const limit = new RateLimit(options.requestsPerMinute ?? 120, options.now);
  const guard = new RegistrationGuard(options.db, options.caps);
  const now = options.now ?? Date.now;
  return (request, response) => {
    const origin = request.headers.origin;
    if (origin && options.appOrigins.includes(origin)) {
      response.setHeader('access-control-allow-origin', origin);
      response.setHeader('vary', 'origin');
      response.setHeader('access-control-allow-methods', 'GET, PUT, DELETE');
      response.setHeader('access-control-allow-headers', 'authorization, content-type');
      response.setHeader('access-control-max-age', '600');
    }
    void handle(request, options, limit, guard, now).then(
      ([status, body, headers]) => send(response, status, body, headers),
      (error: unknown) => {
        if (error instanceof HttpError) return send(response, error.status, errorBody(error), error.headers);
        if (options.log) options.log.error('request failed', { route: routeOf(request), message: String(error) });
        else console.error('relay: request failed', error);
        send(response, 500, { error: 'internal', message: 'the relay failed to answer; try again later' });
      },
    );
  };
}

const errorBody = (error: HttpError) => ({
  error: error.code,
  message: error.message,
  ...(error.field === undefined ? {} : { field: error.field }),
});

/** The route without the device id (a log line never names a device's id with its path). */
const routeOf = (request: IncomingMessage): string =>
  `${request.method ?? 'GET'} ${(request.url ?? '/').split('?')[0]!.replace(/^\/v1\/devices\/[^/]+/, '/v1/devices/{id}')}`;

export type Answer = [status: number, body: unknown, headers?: Record<string, string>];

async function handle(
  request: IncomingMessage,
  options: ApiOptions,
  limit: RateLimit,
  guard: RegistrationGuard,
  now: () => number,
): Promise<Answer> {
  const client = clientKey(clientAddress(request, options.trustedProxies ?? null));
  const wait = limit.take(client);
  if (wait > 0)
    throw new HttpError(429, 'rate_limited', `too many requests from this address; try again in ${wait} s`, {
      'retry-after': String(wait),
    });
  const target = readRequestPath(request.url ?? '/');
  if (!target.ok) throw new HttpError(400, 'bad_path', `${target.error}; send the route's path as written`);
  const { path, query } = target.value;
  const method = request.method ?? 'GET';
  if (method === 'OPTIONS') return [204, null];
  const ops = await options.ops?.(request, path, method, query);
  if (ops) return ops;
  if (path === '/health' && method === 'GET') return [200, { ok: true, networks: options.engine.health() }];
  if (path === '/v1/vapid-public-key' && method === 'GET') return [200, { publicKey: options.vapidPublicKey }];
  if (path === OPENAPI_PATH && method === 'GET') return [200, OPENAPI_DOCUMENT];
  const match = /^\/v1\/devices\/([^/]+)(\/alerts)?$/.exec(path);
  if (!match) throw new HttpError(404, 'not_found', `no such route: ${method} ${path}`);
  const deviceId = match[1] ?? '';
  const alerts = Boolean(match[2]);
  const allowed = alerts ? ['GET'] : ['PUT', 'DELETE'];
  if (!allowed.includes(method))
    throw new HttpError(405, 'method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${method}`, {
      allow: allowed.join(', '),
    });
  if (!DEVICE_ID.test(deviceId))
    throw new HttpError(400, 'bad_device_id', 'the device id must be 22 to 64 characters of A-Z, a-z, 0-9, _ and -');
  const secret = bearer(request);
  if (method === 'PUT') return putDeviceRoute(request, options, { deviceId, secret, client, guard }, now());
  const device = await findDevice(options.db, deviceId);
  if (!secretMatches(secret, device?.secretHash)) throw UNAUTHORIZED;
  if (method === 'DELETE') {
    await deleteDevice(options.db, deviceId);
    await options.engine.deviceDeleted(deviceId);
    return [204, null];
  }
  // A catch-up is a check-in: the device is alive, and does not expire.
  await checkIn(options.db, deviceId, now());
  const after = query.get('after') ?? '0';
  if (!/^\d{1,15}$/.test(after))
    throw new HttpError(400, 'bad_cursor', '"after" must be a cursor the relay gave (a decimal number), or omitted');
  const page = await alertsAfter(options.db, deviceId, Number(after));
  const next = page.alerts.at(-1)?.cursor ?? after;
  // States after `after` that left the kept log: the app reads these addresses over REST instead.
  const gap = page.missed.length > 0 ? { gap: { principals: page.missed } } : {};
  return [200, { alerts: page.alerts, next, more: page.more, ...gap }];
}

async function putDeviceRoute(
  request: IncomingMessage,
  options: ApiOptions,
  { deviceId, secret, client, guard }: { deviceId: string; secret: string; client: string; guard: RegistrationGuard },
  now: number,
): Promise<Answer> {
  const text = await readBody(request);
  const existing = await findDevice(options.db, deviceId);
  // Refused before the body is judged, so a stranger learns nothing about a device by probing with bad bodies.
  if (existing && !secretMatches(secret, existing.secretHash)) throw UNAUTHORIZED;
  const body = parseJson(text);
  const parsed = readDeviceRequest(body, options.pushAllow);
  if (!parsed.ok) throw invalid('invalid_device', parsed.error);
  const { watched, unwatched } = servedWatches(parsed.value.watches, options.engine.networks());
  const outcome = await guard.register(
    { id: deviceId, client, exists: Boolean(existing), watches: watched },
    now,
    (sql) => putDevice(sql, { id: deviceId, secretHash: hashSecret(secret), ...parsed.value, watches: watched }, now),
  );
  if ('refused' in outcome) throw capExceeded(outcome.refused);
  const stored = outcome.stored;
  if (!stored) throw UNAUTHORIZED;
  await options.engine.deviceChanged(deviceId, stored.watches, parsed.value.subscription);
  const cursor = await lastCursor(options.db, deviceId);
  return [stored.created ? 201 : 200, { deviceId, watches: stored.watches.length, cursor, unwatched }];
}

function bearer(request: IncomingMessage): string {
  const secret = bearerToken(request.headers.authorization);
  if (!secret || !DEVICE_SECRET.test(secret))
    throw new HttpError(
      401,
      'unauthorized',
      'send "Authorization: Bearer <secret>" with a secret of 32 to 128 characters of A-Z, a-z, 0-9, _ and -',
    );
  return secret;
}

async function readBody(request: IncomingMessage): Promise<string> {
  if (!(request.headers['content-type'] ?? '').startsWith('application/json'))
    throw new HttpError(415, 'unsupported_media_type', 'send the body as JSON with "content-type: application/json"');
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new HttpError(400, 'malformed_json', `the body is not valid JSON (${(error as Error).message})`);
  }
}

const capExceeded = (refusal: CapRefusal) =>
  new HttpError(429, refusal.code, refusal.message, { 'retry-after': String(refusal.retryAfterSeconds) });

const tooLarge = () =>
  new HttpError(
    413,
    'body_too_large',
    `the body is larger than ${MAX_BODY_BYTES / 1024} kB; at most 1,000 watches fit`,
  );

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (response.headersSent) return;
  // A string is already text (the metrics); everything else is JSON.
  const text = body === null ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  const type =
    typeof body === 'string' ? 'text/plain; version=0.0.4; charset=utf-8' : 'application/json; charset=utf-8';
  response.writeHead(status, {
    ...headers,
    ...(body === null ? {} : { 'content-type': type }),
    'cache-control': 'no-store',
  });
  response.end(text);
}
