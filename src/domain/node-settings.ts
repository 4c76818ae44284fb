import type { Network } from './network.ts';
import { err, ok, type Result } from './result.ts';

/** A user's choice of node for one network; absent means the default node. */
export interface NodeChoice {
  readonly url: string;
  readonly apiKey: string | null;
}

export type NodeChoices = Readonly<Partial<Record<Network, NodeChoice>>>;

/** An http(s) base URL, without credentials, query or fragment, and without a trailing slash. */
export function checkNodeUrl(text: string): Result<string, string> {
  const trimmed = text.trim();
  if (!trimmed) return err('Enter the node’s address, for example https://api.mainnet.hiro.so.');
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return err('This is not a web address. Enter one like https://stacks-node.example.com.');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return err(`Only http and https nodes are supported, not ${url.protocol.replace(':', '')}.`);
  if (url.username || url.password)
    return err('Leave the user name and password out of the address; use the API key field for a key.');
  if (url.search || url.hash) return err('Leave the query (?…) and fragment (#…) out of the node’s address.');
  return ok(`${url.origin}${url.pathname}`.replace(/\/+$/, ''));
}

/** An API key: printable characters, no spaces, at most 200; empty means none. */
export function checkApiKey(text: string): Result<string | null, string> {
  const key = text.trim();
  if (!key) return ok(null);
  if (key.length > 200) return err('The API key is longer than 200 characters; check that it was pasted once.');
  if (!/^[\x21-\x7e]+$/.test(key)) return err('The API key may only contain printable characters without spaces.');
  return ok(key);
}
