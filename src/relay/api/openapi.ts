import { NETWORKS } from '../../domain/network.ts';
import {
  DEVICE_ID,
  DEVICE_SECRET,
  deviceRegistrationSchema,
  RELAY_MAX_WATCHES,
} from '../../domain/relay/device-schema.ts';
import type { JsonSchema } from '../../domain/relay/wire-schema.ts';

/** Where the document is served, beside the routes it describes (`/relay/openapi.json` on the app's origin). */
export const OPENAPI_PATH = '/openapi.json';

const error = (codes: string): JsonSchema => ({
  type: 'object',
  required: ['error', 'message'],
  properties: {
    error: { type: 'string', description: codes },
    message: { type: 'string', description: 'what was wrong and what is expected, in words' },
    field: { type: 'string', description: 'the request field that was wrong, e.g. watches/3/principal' },
  },
});

const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const unwatched: JsonSchema = {
  type: 'array',
  description: 'addresses of the list this relay does not watch (it follows no node of their network), and why',
  items: {
    type: 'object',
    required: ['network', 'principal', 'reason'],
    properties: { network: { enum: NETWORKS }, principal: { type: 'string' }, reason: { type: 'string' } },
  },
};

/** `PUT /v1/devices/{id}`'s answer (200 and 201): the route serializes with it, so nothing else leaves the relay. */
export const REGISTERED_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['deviceId', 'watches', 'cursor', 'unwatched'],
  properties: {
    deviceId: { type: 'string' },
    watches: { type: 'integer', description: 'how many watches the relay keeps for the device' },
    cursor: { type: 'string', description: "the device's latest alert cursor (decimal)" },
    unwatched,
  },
};

/** `GET /v1/vapid-public-key`'s answer. */
export const VAPID_KEY_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['publicKey'],
  properties: { publicKey: { type: 'string' } },
};

const registered = json(REGISTERED_SCHEMA, 'the device as stored');

const refused = (status: string, codes: string) => ({ [status]: json(error(codes), codes) });
const tooMany = json(error('rate_limited and the caps'), 'a limit or cap: wait the Retry-After seconds');
const bearer = [{ deviceSecret: [] }];
const deviceId = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string', pattern: DEVICE_ID.source },
  description: 'a random id the device chose',
};

/**
 * The relay's API as OpenAPI 3.1. The device request's schema is the one the relay reads requests with and the app
 * checks its own against (domain/relay/device-schema.ts), so the document cannot drift from either.
 */
export function openApiDocument(version: string): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Stacks Watch push relay',
      version,
      description: `Registers devices (at most ${RELAY_MAX_WATCHES.toLocaleString('en-US')} watched addresses each) and serves their alerts; pushes go out as Web Push.`,
    },
    // Relative to where this document is served: `/relay/` on the app's origin, `/` on a relay of its own.
    servers: [{ url: '.' }],
    components: {
      securitySchemes: {
        deviceSecret: {
          type: 'http',
          scheme: 'bearer',
          description: `the device's secret, ${DEVICE_SECRET.source}; the relay keeps only its SHA-256`,
        },
      },
      schemas: { DeviceRegistration: deviceRegistrationSchema.json, Error: error('an error code') },
    },
    paths: {
      '/v1/vapid-public-key': {
        get: {
          summary: "The relay's VAPID public key, for PushManager.subscribe",
          responses: {
            200: json(VAPID_KEY_SCHEMA, 'the key'),
          },
        },
      },
      '/v1/devices/{id}': {
        parameters: [deviceId],
        put: {
          summary: 'Registers the device, or replaces its subscription and watch list',
          security: bearer,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/DeviceRegistration' } } },
          },
          responses: {
            200: registered,
            201: registered,
            ...refused('400', 'bad_path, bad_device_id, malformed_json, invalid_device (with field)'),
            ...refused('401', 'unauthorized: no bearer secret, or not the secret of this device'),
            ...refused('413', 'body_too_large'),
            ...refused('415', 'unsupported_media_type'),
            429: tooMany,
          },
        },
        delete: {
          summary: 'Forgets the device and its watches',
          security: bearer,
          responses: { 204: { description: 'forgotten' }, ...refused('401', 'unauthorized'), 429: tooMany },
        },
      },
      '/v1/devices/{id}/alerts': {
        parameters: [
          deviceId,
          {
            name: 'after',
            in: 'query',
            schema: { type: 'string', pattern: '^\\d{1,15}$' },
            description: 'the cursor the relay gave last',
          },
        ],
        get: {
          summary: "The device's alerts after a cursor (its catch-up)",
          security: bearer,
          responses: {
            200: json(
              {
                type: 'object',
                required: ['alerts', 'next', 'more'],
                properties: {
                  alerts: { type: 'array', items: { type: 'object' } },
                  next: { type: 'string' },
                  more: { type: 'boolean' },
                  gap: { type: 'object', description: 'addresses whose states left the kept log' },
                },
              },
              'a page of alerts',
            ),
            ...refused('400', 'bad_cursor'),
            ...refused('401', 'unauthorized'),
            429: tooMany,
          },
        },
      },
      '/health': {
        get: {
          summary: 'Readiness, with the followed networks',
          description:
            'A summary in words; the devices registered; each followed network with its state (idle before a device ' +
            'watches one of its addresses, syncing, following, node away); the networks not followed and why; the ' +
            "sender's queue",
          responses: {
            200: { description: 'ready' },
            503: { description: 'the database or every node is away, or every push has failed for a minute' },
          },
        },
      },
      '/health/live': { get: { summary: 'Liveness', responses: { 200: { description: 'the process answers' } } } },
      [OPENAPI_PATH]: { get: { summary: 'This document', responses: { 200: { description: 'OpenAPI 3.1' } } } },
    },
  };
}
