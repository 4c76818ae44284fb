import type { IncomingMessage } from 'node:http';
import type { BlockList } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { RuntimeConfig } from '../chain/runtime-config.ts';
import type { Network } from '../domain/network.ts';
import { checkRelayUrl } from '../domain/relay/relay-url.ts';
import { viaTrustedProxy } from '../relay/api/client-address.ts';
import { RELAY_PATH } from './app-server.ts';
import { unusableFrom } from './published-nodes.ts';

export interface ServedConfigOptions {
  /** Each network's node for the app (published-nodes.ts); each request is given those its origin can use. */
  readonly nodes: Partial<Record<Network, string>>;
  /** The node origins the policy's connect-src lists (csp.ts policyNodes): each request is told those it can use. */
  readonly allowedNodes: readonly string[];
  readonly devnet: string | null;
  readonly relay: boolean;
  /** The origin users reach (`--public-url`); else the request's own, as a trusted proxy reports its scheme. */
  readonly publicUrl: string | null;
  readonly trustedProxies: BlockList | null;
}

const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/** The origin the browser used: the relay's URL is on it, so the app reaches its relay with no CORS. */
function originOf(request: IncomingMessage, options: ServedConfigOptions): string | null {
  if (options.publicUrl) return options.publicUrl;
  const host = request.headers.host ?? '';
  if (!HOST.test(host)) return null;
  const forwarded = viaTrustedProxy(request, options.trustedProxies)
    ? String(request.headers['x-forwarded-proto'] ?? '')
        .split(',')[0]
        ?.trim()
    : '';
  const tls = (request.socket as Partial<TLSSocket>).encrypted === true;
  const scheme = forwarded === 'https' || forwarded === 'http' ? forwarded : tls ? 'https' : 'http';
  return `${scheme}://${host.toLowerCase()}`;
}

/** The runtime config this server gives the app: its nodes, its devnet (npm start) and its relay, on this origin. */
export function servedConfig(options: ServedConfigOptions): (request: IncomingMessage) => RuntimeConfig {
  return (request) => {
    const own = originOf(request, options);
    const origin = options.relay ? own : null;
    // Without --public-url the origin is known only here: a node it cannot use is left out (the app's default rules).
    const nodes = Object.fromEntries(
      Object.entries(options.nodes)
        .filter(([, url]) => unusableFrom(url, own) === null)
        .map(([network, url]) => [network, { url }]),
    );
    // What Settings may say a custom node can be: the policy allows these, and this origin can reach them.
    const allowedNodes = options.allowedNodes.filter((url) => unusableFrom(url, own) === null);
    // Plain http away from loopback is refused by the app (and would carry the watch list in the clear): then the
    // relay is left out rather than the whole config refused.
    const relay = origin ? checkRelayUrl(`${origin}${RELAY_PATH}`) : null;
    return {
      devnet: options.devnet ? { url: options.devnet } : null,
      relay: relay?.ok ? { url: relay.value } : null,
      nodes,
      allowedNodes,
    };
  };
}
