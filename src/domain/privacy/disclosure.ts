import { isRecord } from '../is-record.ts';

/**
 * What a request tells the host it goes to. The app records, at the points where its requests leave, which watched
 * addresses each host could have learned; this is the pure part: given what was sent and the watch list, which
 * principals does it name?
 */

/** Why the app contacted a host; the screen says it in words. `app` is the app's own origin (never a third party). */
export const PURPOSES = ['chain', 'live', 'tokens', 'names', 'test', 'relay', 'devnet', 'app'] as const;
export type Purpose = (typeof PURPOSES)[number];

export const isPurpose = (value: unknown): value is Purpose =>
  typeof value === 'string' && (PURPOSES as readonly string[]).includes(value);

/** One thing sent: an HTTP request (its URL and body), or a message over a socket naming topics. */
export type Outbound =
  | {
      readonly via: 'http';
      readonly url: string;
      readonly body: string | null;
      readonly purpose: Purpose;
      /** False when it got no answer at all (it never reached the host, as far as the browser can tell). */
      readonly answered?: boolean;
      /**
       * Unanswered because the app stopped waiting (a timeout, a cancel), not because it failed: it may have reached
       * the host, which may have read it.
       */
      readonly gaveUp?: boolean;
    }
  | {
      readonly via: 'socket';
      readonly url: string;
      readonly topics: readonly string[];
      readonly purpose: Purpose;
      /** False for a connection attempt not (yet) answered: its handshake never reached the host as far as it shows. */
      readonly answered?: boolean;
    };

/**
 * The host a request went to, as an origin (`https://api.example.com`, `http://127.0.0.1:3999`); a socket's
 * `ws(s):` counts as the `http(s):` host it belongs to. Null for a URL that cannot be read.
 */
export function originOf(url: string, base?: string): string | null {
  try {
    const parsed = new URL(url, base);
    const protocol = parsed.protocol === 'wss:' ? 'https:' : parsed.protocol === 'ws:' ? 'http:' : parsed.protocol;
    if (protocol !== 'http:' && protocol !== 'https:') return null;
    return `${protocol}//${parsed.host}`;
  } catch {
    return null;
  }
}

/**
 * The watched principals an outbound message names, each once, in the order found: in the URL's path and query
 * (decoded), in a JSON body (every string and key, however deep; a body that is not JSON is read as text), in the
 * socket topics. A principal counts wherever it stands as a whole word (`address-transaction:SP…`, `/principals/SP…/`,
 * `"SP…"`), and an address also inside a contract id or asset name (`SP….token`, `SP….token::gold`): naming the
 * contract names its deployer.
 */
export function revealedPrincipals(outbound: Outbound, watched: ReadonlySet<string>): string[] {
  if (watched.size === 0) return [];
  const found = new Set<string>();
  for (const text of textsOf(outbound))
    for (const word of text.split(NOT_IN_PRINCIPAL)) {
      if (word.length < 28) continue;
      for (const candidate of candidatesOf(word)) if (watched.has(candidate)) found.add(candidate);
    }
  return [...found];
}

/** Principals are made of c32 letters and digits, then `.` and a contract name (letters, digits, `-`, `_`). */
const NOT_IN_PRINCIPAL = /[^A-Za-z0-9._-]+/;

/** A word, the contract id in it, and the address in it (upper-cased: the node reads any case the same way). */
function candidatesOf(word: string): string[] {
  const [address = '', contract] = word.split('.');
  const canonical = address.toUpperCase();
  const candidates = [word, address, canonical];
  if (contract) candidates.push(`${address}.${contract}`, `${canonical}.${contract}`);
  return candidates;
}

function textsOf(outbound: Outbound): string[] {
  const texts = urlTexts(outbound.url);
  if (outbound.via === 'socket') texts.push(...outbound.topics);
  else if (outbound.body !== null) texts.push(...bodyTexts(outbound.body));
  return texts;
}

function urlTexts(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url, 'http://relative.invalid');
  } catch {
    return [decoded(url)];
  }
  const texts = [decoded(parsed.pathname)];
  parsed.searchParams.forEach((value, key) => texts.push(key, value));
  if (parsed.hash) texts.push(decoded(parsed.hash));
  return texts;
}

function bodyTexts(body: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    return [body];
  }
  const texts: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') texts.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (isRecord(value))
      for (const [key, inner] of Object.entries(value)) {
        texts.push(key);
        walk(inner);
      }
  };
  walk(data);
  return texts;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
