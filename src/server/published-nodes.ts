import { isLoopbackHost } from '../domain/loopback.ts';
import { PUBLIC_NODES } from '../chain/public-nodes.ts';
import type { Network } from '../domain/network.ts';
import { addressReach, type Reach } from '../relay/api/address-reach.ts';

/**
 * Which node the app is told to use for each network (the runtime config and the policy's connect-src), apart from
 * the nodes the relay follows: a server often follows a node on its own loopback or network that no phone can reach.
 * A node is published only where the app can use it from the origin it is opened on: never plain http under an
 * https origin (the browser blocks it as mixed content), never a loopback address away from loopback (a phone would
 * ask itself), never a private-network one away from that network.
 */
export interface PublishedNodes {
  /** Each network's node for the app; a network left out uses the app's default (the public Hiro node). */
  readonly nodes: Partial<Record<Network, string>>;
  /** One line per network: what the app is told and why, for the start message. */
  readonly lines: readonly string[];
  /** A followed node left out, in words: said at start as a warning. */
  readonly warnings: readonly string[];
}

const LOCAL_SUFFIXES = ['.local', '.lan', '.home', '.internal', '.home.arpa', '.intranet', '.corp'];

/** Where a host can be reached from: an address as address-reach.ts judges it; a bare or LAN-suffixed name, privately. */
export function reachOf(hostname: string): Reach {
  if (isLoopbackHost(hostname)) return 'loopback';
  const address = addressReach(hostname);
  if (address !== null) return address;
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  // A name without a dot (a container's service name, a machine on the LAN) resolves only on that network.
  if (!host.includes('.') || LOCAL_SUFFIXES.some((suffix) => host.endsWith(suffix))) return 'private';
  return 'public';
}

const REACH_WORDS: Record<Exclude<Reach, 'public'>, string> = {
  loopback: 'a loopback address (a phone would ask itself)',
  private: 'a private-network address (a phone away from that network cannot reach it)',
};

/**
 * Why the app opened on `appOrigin` cannot use `node`, or null when it can. Without a known origin (no
 * `--public-url`), anything is usable: the served config then judges each request's own origin.
 */
export function unusableFrom(node: string, appOrigin: string | null): string | null {
  if (appOrigin === null) return null;
  const app = new URL(appOrigin);
  const url = new URL(node);
  if (app.protocol === 'https:' && url.protocol === 'http:')
    return 'plain http (an app on https may not call it: the browser blocks mixed content)';
  const reach = reachOf(url.hostname);
  const appReach = reachOf(app.hostname);
  if (reach === 'loopback' && appReach !== 'loopback') return REACH_WORDS.loopback;
  if (reach === 'private' && appReach === 'public') return REACH_WORDS.private;
  return null;
}

/**
 * The nodes to publish: the one named for the app (`--public-testnet-node`), else the followed one when the app can
 * use it from `appOrigin`; else none, and the app keeps its default. The public Hiro nodes need no naming.
 */
export function publishNodes(options: {
  readonly followed: Partial<Record<Network, string>>;
  readonly named: Partial<Record<Network, string>>;
  readonly appOrigin: string | null;
}): PublishedNodes {
  const nodes: Partial<Record<Network, string>> = {};
  const lines: string[] = [];
  const warnings: string[] = [];
  for (const network of ['mainnet', 'testnet'] as const) {
    const named = options.named[network];
    const followed = options.followed[network];
    const fallback = `the app's default, ${PUBLIC_NODES[network]}`;
    if (named) {
      if (named !== PUBLIC_NODES[network]) nodes[network] = named;
      lines.push(`${network} → ${named} (--public-${network}-node)`);
      continue;
    }
    if (!followed || followed === PUBLIC_NODES[network]) {
      lines.push(`${network} → ${fallback}`);
      continue;
    }
    const why = unusableFrom(followed, options.appOrigin);
    if (why === null) {
      nodes[network] = followed;
      lines.push(`${network} → ${followed} (the node the relay follows)`);
      continue;
    }
    lines.push(`${network} → ${fallback}`);
    warnings.push(
      `the ${network} node the relay follows, ${followed}, is not given to the app opened on ${options.appOrigin}: it is ` +
        `${why}. Phones use ${PUBLIC_NODES[network]} for ${network} addresses instead; to give them yours, set ` +
        `--public-${network}-node (STACKS_WATCH_PUBLIC_${network.toUpperCase()}_NODE) to an https URL of it they can reach.`,
    );
  }
  return { nodes, lines, warnings };
}
