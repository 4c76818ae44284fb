import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describeIssue, type WireIssue } from '../../domain/relay/wire-schema.ts';
import type { Log } from '../log.ts';
import { MAX_BODY_BYTES } from './edge-options.ts';

/** A refusal the relay answers as `{ error, message, field? }`, with its status and headers. */
export class HttpError extends Error {
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
export const invalid = (code: string, wrong: WireIssue) =>
  new HttpError(400, code, describeIssue(wrong), {}, wrong.field);

export const UNAUTHORIZED = new HttpError(
  401,
  'unauthorized',
  'this device id and secret do not match a device; send "Authorization: Bearer <the secret chosen when the device was created>"',
);

export const UNSUPPORTED_MEDIA_TYPE = new HttpError(
  415,
  'unsupported_media_type',
  'send the body as JSON with "content-type: application/json"',
);

const TOO_LARGE = new HttpError(
  413,
  'body_too_large',
  `the body is larger than ${MAX_BODY_BYTES / 1024} kB; at most 1,000 watches fit`,
);

export type Answer = [status: number, body: unknown, headers?: Record<string, string>];

/**
 * Every answer of the relay: JSON (or the metrics' text), never cached. An object is serialized by Fastify: with the
 * route's response schema where it has one (only the schema's fields leave the relay), else as JSON.stringify does.
 */
export function send(reply: FastifyReply, [status, body, headers = {}]: Answer): FastifyReply {
  reply.code(status).headers({ ...headers, 'cache-control': 'no-store' });
  if (body === null) return reply.send();
  // A string is already text (the metrics); everything else is JSON.
  if (typeof body === 'string') return reply.type('text/plain; version=0.0.4; charset=utf-8').send(body);
  return reply.type('application/json; charset=utf-8').send(body);
}

/** Fastify's own refusals (body parsing, a request it cannot read) in the relay's words and shape. */
function fromFramework(error: FastifyError): HttpError | null {
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return TOO_LARGE;
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return UNSUPPORTED_MEDIA_TYPE;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return new HttpError(status, 'bad_request', error.message);
  return null;
}

/** The route without the device id (a log line never names a device's id with its path). */
const routeOf = (request: FastifyRequest): string =>
  `${request.method} ${request.url.split('?')[0]!.replace(/\/v1\/devices\/[^/]+/, '/v1/devices/{id}')}`;

/**
 * The relay's one error handler: every refusal has the shape `{ error, message, field? }` (the OpenAPI document's
 * `Error`), whether the route, a hook or Fastify itself refused; anything else is logged and answered 500.
 */
export function errorHandler(log: () => Log | undefined) {
  return (error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const known = error instanceof HttpError ? error : fromFramework(error);
    if (known) {
      const body = {
        error: known.code,
        message: known.message,
        ...(known.field === undefined ? {} : { field: known.field }),
      };
      return send(reply, [known.status, body, known.headers]);
    }
    const logged = log();
    if (logged) logged.error('request failed', { route: routeOf(request), message: String(error) });
    else console.error('relay: request failed', error);
    return send(reply, [500, { error: 'internal', message: 'the relay failed to answer; try again later' }]);
  };
}
