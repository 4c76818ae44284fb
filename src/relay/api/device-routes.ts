import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  DEVICE_ID,
  DEVICE_SECRET,
  deviceRegistrationSchema,
  readDeviceRegistration,
  type DeviceRegistration,
} from '../../domain/relay/device-schema.ts';
import { alertsAfter, lastCursor } from '../storage/deliveries.ts';
import { checkIn, deleteDevice, findDevice, putDevice } from '../storage/devices.ts';
import type { CapRefusal } from './caps.ts';
import { clientAddress } from './client-address.ts';
import { clientKey } from './client-key.ts';
import { applyRelayPolicy } from './device-request.ts';
import { pathWithin, queryOf } from './edge-options.ts';
import { REGISTERED_SCHEMA } from './openapi.ts';
import { HttpError, invalid, send, UNAUTHORIZED, UNSUPPORTED_MEDIA_TYPE } from './http-error.ts';
import { bearerToken, hashSecret, secretMatches } from './secrets.ts';
import { servedWatches } from './served-watches.ts';
import type { RelayApi } from './server.ts';

type Device = Awaited<ReturnType<typeof findDevice>>;
interface DeviceRequest extends FastifyRequest {
  readonly params: { readonly id: string };
}

/**
 * `PUT` and `DELETE /v1/devices/{id}` and `GET /v1/devices/{id}/alerts`. Each route's hooks keep the relay's order
 * of answers (docs/relay.md, "Security"): the id's shape and the bearer secret before any body is read; a `PUT`'s
 * content type and size, then the secret of an existing device, before its body is parsed or judged by the schema.
 */
export async function deviceRoutes(app: FastifyInstance, { api }: { api: () => RelayApi }): Promise<void> {
  const secrets = new WeakMap<FastifyRequest, string>();
  const existing = new WeakMap<FastifyRequest, Device>();
  const identify = async (request: FastifyRequest) => {
    if (!DEVICE_ID.test((request as DeviceRequest).params.id))
      throw new HttpError(400, 'bad_device_id', 'the device id must be 22 to 64 characters of A-Z, a-z, 0-9, _ and -');
    secrets.set(request, bearer(request));
  };
  const authorized = async (request: FastifyRequest): Promise<string> => {
    const { id } = (request as DeviceRequest).params;
    const device = await findDevice(api().options.db, id);
    if (!secretMatches(secrets.get(request) ?? '', device?.secretHash)) throw UNAUTHORIZED;
    return id;
  };
  const notAllowed = (allowed: readonly string[]) => ({
    method: app.supportedMethods.filter((method) => method !== 'OPTIONS' && !allowed.includes(method)),
    handler: (request: FastifyRequest) => {
      const path = pathWithin(request.url, app.prefix);
      throw new HttpError(405, 'method_not_allowed', `${path} answers ${allowed.join(', ')}, not ${request.method}`, {
        allow: allowed.join(', '),
      });
    },
  });

  app.route({ url: '/v1/devices/:id', ...notAllowed(['PUT', 'DELETE']) });
  app.route({ url: '/v1/devices/:id/alerts', ...notAllowed(['GET']) });

  app.delete('/v1/devices/:id', { onRequest: identify }, async (request, reply) => {
    const id = await authorized(request);
    await deleteDevice(api().options.db, id);
    await api().options.engine.deviceDeleted(id);
    return send(reply, [204, null]);
  });

  app.get('/v1/devices/:id/alerts', { onRequest: identify }, async (request, reply) => {
    const id = await authorized(request);
    const { db } = api().options;
    // A catch-up is a check-in: the device is alive, and does not expire.
    await checkIn(db, id, api().now());
    const after = queryOf(request.url).get('after') ?? '0';
    if (!/^\d{1,15}$/.test(after))
      throw new HttpError(400, 'bad_cursor', '"after" must be a cursor the relay gave (a decimal number), or omitted');
    const page = await alertsAfter(db, id, Number(after));
    const next = page.alerts.at(-1)?.cursor ?? after;
    // States after `after` that left the kept log: the app reads these addresses over REST instead.
    const gap = page.missed.length > 0 ? { gap: { principals: page.missed } } : {};
    return send(reply, [200, { alerts: page.alerts, next, more: page.more, ...gap }]);
  });

  // The PUT's body parser lives in its own context: the other routes read no body at all.
  await app.register(async (put) => {
    put.removeAllContentTypeParsers();
    // Read as text: JSON is parsed only after an existing device's secret was checked (preValidation below).
    put.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    put.put(
      '/v1/devices/:id',
      {
        onRequest: identify,
        preValidation: async (request) => {
          if (!String(request.headers['content-type'] ?? '').startsWith('application/json'))
            throw UNSUPPORTED_MEDIA_TYPE;
          const { id } = (request as DeviceRequest).params;
          const device = await findDevice(api().options.db, id);
          // Refused before the body is judged, so a stranger learns nothing about a device by probing with bad bodies.
          if (device && !secretMatches(secrets.get(request) ?? '', device.secretHash)) throw UNAUTHORIZED;
          existing.set(request, device);
          request.body = parseJson(typeof request.body === 'string' ? request.body : '');
        },
        // The one wire contract: the app checks its request with this schema, the OpenAPI document publishes its
        // JSON Schema, and the route reads the body with it, naming the field it refuses.
        schema: { body: deviceRegistrationSchema.json, response: { 200: REGISTERED_SCHEMA, 201: REGISTERED_SCHEMA } },
        validatorCompiler: () => (body: unknown) => {
          const read = readDeviceRegistration(body);
          return read.ok ? { value: read.value } : { error: invalid('invalid_device', read.error) };
        },
      },
      async (request, reply) => registerDevice(request as DeviceRequest, reply, existing.get(request)),
    );
  });

  async function registerDevice(request: DeviceRequest, reply: FastifyReply, device: Device): Promise<FastifyReply> {
    const { options, guard, now } = api();
    const deviceId = request.params.id;
    const secret = secrets.get(request) ?? '';
    const parsed = applyRelayPolicy(request.body as DeviceRegistration, options.pushAllow);
    if (!parsed.ok) throw invalid('invalid_device', parsed.error);
    const { watched, unwatched } = servedWatches(parsed.value.watches, options.engine.networks());
    const client = clientKey(clientAddress(request.raw, options.trustedProxies ?? null));
    const at = now();
    const outcome = await guard.register(
      { id: deviceId, client, exists: Boolean(device), watches: watched },
      at,
      (sql) => putDevice(sql, { id: deviceId, secretHash: hashSecret(secret), ...parsed.value, watches: watched }, at),
    );
    if ('refused' in outcome) throw capExceeded(outcome.refused);
    const stored = outcome.stored;
    if (!stored) throw UNAUTHORIZED;
    await options.engine.deviceChanged(deviceId, stored.watches, parsed.value.subscription);
    const cursor = await lastCursor(options.db, deviceId);
    return send(reply, [stored.created ? 201 : 200, { deviceId, watches: stored.watches.length, cursor, unwatched }]);
  }
}

function bearer(request: FastifyRequest): string {
  const secret = bearerToken(request.headers.authorization);
  if (!secret || !DEVICE_SECRET.test(secret))
    throw new HttpError(
      401,
      'unauthorized',
      'send "Authorization: Bearer <secret>" with a secret of 32 to 128 characters of A-Z, a-z, 0-9, _ and -',
    );
  return secret;
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
