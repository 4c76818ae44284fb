import { createHash } from 'node:crypto';
import { parsePrincipal } from '../../src/domain/address/address.ts';

/** A request and response in plain data, so the same routes serve node's http server and MSW. */
export interface DevnetRequest {
  readonly method: string;
  readonly url: URL;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body?: string;
}

export interface DevnetResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

export const API_VERSION = 'v8.13.6 (devnet)';
const DEPRECATED = '299 - "Deprecated: See https://docs.hiro.so/stacks/api for more information"';

/** What the real API sends with every answer: CORS open to all, exposing only X-API-Version. */
export const BASE_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'X-API-Version',
  'x-api-version': API_VERSION,
} as const;

export function json(status: number, data: unknown, extra: Record<string, string> = {}): DevnetResponse {
  return {
    status,
    headers: {
      ...BASE_HEADERS,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': status === 200 ? 'public, no-cache, must-revalidate' : 'no-store',
      ...extra,
    },
    body: JSON.stringify(data),
  };
}

export const deprecated = (response: DevnetResponse): DevnetResponse => ({
  ...response,
  headers: { ...response.headers, warning: DEPRECATED },
});

/**
 * An ETag (`tag`, else a hash of the body), and a 304 when the client already has it; `tag` null sends none, as the
 * API does where it has nothing to hash.
 */
export function withEtag(request: DevnetRequest, response: DevnetResponse, tag?: string | null): DevnetResponse {
  if (response.status !== 200 || tag === null) return response;
  const etag = `"${tag ?? createHash('sha256').update(response.body).digest('hex')}"`;
  if (request.headers['if-none-match'] === etag) {
    return { status: 304, headers: { ...response.headers, etag }, body: '' };
  }
  return { ...response, headers: { ...response.headers, etag } };
}

export const validationError = (message: string): DevnetResponse =>
  json(400, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message });

export const notFound = (message: string): DevnetResponse =>
  json(404, { statusCode: 404, error: 'Not Found', message });

export const routeNotFound = (request: DevnetRequest): DevnetResponse =>
  json(404, {
    message: `Route ${request.method}:${request.url.pathname} not found`,
    error: 'Not Found',
    statusCode: 404,
  });

const PRINCIPAL_PATTERN = /^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}(\.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39})?$/;
const PRINCIPAL_MESSAGE =
  'params/principal must match pattern "^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}", params/principal must match pattern "^[0123456789ABCDEFGHJKMNPQRSTVWXYZ]{28,41}.[a-zA-Z]([a-zA-Z0-9]|[-_]){0,39}$", params/principal must match a schema in anyOf';

/** The API's principal check: its pattern first (so lowercase is refused), then the checksum. */
export function checkPrincipal(raw: string): DevnetResponse | null {
  if (!PRINCIPAL_PATTERN.test(raw)) return validationError(PRINCIPAL_MESSAGE);
  const parsed = parsePrincipal(raw);
  if (!parsed.ok) return json(400, { error: `invalid STX address "${raw}"` });
  return null;
}

/** `limit` (default, at most `max`) and a cursor or offset, validated as the API does. */
export function readLimit(url: URL, fallback: number, max: number, name = 'limit'): number | DevnetResponse {
  const raw = url.searchParams.get(name);
  if (raw === null) return fallback;
  const limit = Number(raw);
  if (!Number.isInteger(limit)) return validationError(`querystring/${name} must be integer`);
  if (limit > max) return validationError(`querystring/${name} must be <= ${max}`);
  if (limit < 0) return validationError(`querystring/${name} must be >= 0`);
  return limit;
}

export function readOffset(url: URL, name = 'offset'): number | DevnetResponse {
  const raw = url.searchParams.get(name);
  if (raw === null) return 0;
  const offset = Number(raw);
  return Number.isInteger(offset) && offset >= 0 ? offset : validationError(`querystring/${name} must be >= 0`);
}

export const isResponse = (value: unknown): value is DevnetResponse =>
  typeof value === 'object' && value !== null && 'status' in value && 'body' in value;
