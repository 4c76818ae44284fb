import { err, ok, type Result } from '../../domain/result.ts';

/** A request target read as a path: the path exactly as sent (never decoded, never normalised) and its query. */
export interface RequestPath {
  readonly path: string;
  readonly query: URLSearchParams;
}

/** `.`, `..` and their percent-encoded spellings: a URL parser or a file system would resolve them. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;
/** A slash or backslash, plain or encoded, or NUL: a segment that holds one is two segments to someone downstream. */
const HIDDEN_SEPARATOR = /%2f|%5c|\\|%00/i;
/**
 * A letter, digit or `-._~` percent-encoded (RFC 3986's unreserved characters, which need no escape): a router that
 * decodes reads `/v1/devices/%41…` as `/v1/devices/A…`, a path nobody sent.
 */
const ESCAPED_UNRESERVED = /%(?:3[0-9]|4[1-9a-f]|5[0-9a]|6[1-9a-f]|7[0-9a]|2d|2e|5f|7e)/i;

/**
 * Reads a request target (`request.url`) as an origin-form path, or says why it is not one. The path is compared
 * exactly as sent, so that this server, a reverse proxy's path matchers and a file lookup all see the same path:
 * `//host/x` is never read as a host (as `new URL(target, base)` does), and doubled slashes, dot segments, encoded
 * slashes or backslashes are refused rather than normalised into a path a proxy rule did not see.
 */
export function readRequestPath(target: string): Result<RequestPath, string> {
  const mark = target.indexOf('?');
  const path = mark < 0 ? target : target.slice(0, mark);
  const query = new URLSearchParams(mark < 0 ? '' : target.slice(mark + 1));
  if (!path.startsWith('/')) return err('the request target must be a path starting with "/"');
  if (path.includes('#')) return err('the path must not carry a fragment ("#")');
  const segments = path.slice(1).split('/');
  for (const [index, segment] of segments.entries()) {
    // A trailing slash leaves one empty last segment (`/relay/`, `/assets/`): any other empty one is `//`.
    if (segment === '' && index < segments.length - 1) return err('the path must not contain "//"');
    if (DOT_SEGMENT.test(segment)) return err('the path must not contain "." or ".." segments');
    if (HIDDEN_SEPARATOR.test(segment)) return err('the path must not contain encoded slashes, backslashes or NUL');
    if (ESCAPED_UNRESERVED.test(segment))
      return err('the path must not percent-encode letters, digits or "-._~": send them as they are');
    if (!isDecodable(segment)) return err('the path has a "%" that is not followed by two hexadecimal digits');
  }
  return ok({ path, query });
}

function isDecodable(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
