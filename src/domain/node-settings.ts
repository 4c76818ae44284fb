import type { Network } from './network.ts';
import { err, ok, type Result } from './result.ts';

/** A user's choice of node for one network; absent means the default node. */
export interface NodeChoice {
  readonly url: string;
  readonly apiKey: string | null;
  /** Requests a minute the user allows this node; absent means the default for its kind of host. */
  readonly perMinute?: number | null;
}

/** The most a node may be asked a minute from one device: beyond it the app would be a load test, not a watcher. */
export const MAX_NODE_BUDGET = 6000;

/** A request budget typed in Settings: a whole number of requests a minute; empty means the default. */
export function checkNodeBudget(text: string): Result<number | null, string> {
  const trimmed = text.trim().replace(/[\s,_]/g, '');
  if (!trimmed) return ok(null);
  if (!/^\d+$/.test(trimmed))
    return err(
      `“${text.trim()}” is not a number of requests. Enter a whole number, for example 120, or leave it empty.`,
    );
  const value = Number(trimmed);
  if (value < 1) return err('Allow at least 1 request a minute, or leave the field empty for the default.');
  if (value > MAX_NODE_BUDGET)
    return err(
      `At most ${MAX_NODE_BUDGET.toLocaleString('en-US')} requests a minute; ${value.toLocaleString('en-US')} is more.`,
    );
  return ok(value);
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
