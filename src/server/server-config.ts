import { hostname } from 'node:os';
import { resolve } from 'node:path';
import type { Network } from '../domain/network.ts';
import { readConfig, requireRealContact, type RelayConfig } from '../relay/config.ts';
import { unusableFrom } from './published-nodes.ts';

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** The built app. */
  readonly root: string;
  /** The relay's settings; null with `--no-relay` (the app alone, as any static host would serve it). */
  readonly relay: RelayConfig | null;
  /** Read even without a relay: the served config names these nodes, and the proxies are trusted for the scheme. */
  readonly relaySettings: RelayConfig;
  readonly publicUrl: string | null;
  /** Origins the policy's connect-src allows beyond the server's own nodes (nodes users may type in Settings). */
  readonly connectSrc: readonly string[];
  /** The node the app is told to use per network (`--public-testnet-node`), apart from the one the relay follows. */
  readonly publicNodes: Partial<Record<Network, string>>;
}

export const SERVER_USAGE = `stacks-watch [options]   (npm run serve -- [options]; each option also as an environment variable)
  --host HOST            STACKS_WATCH_HOST    address to listen on (default 127.0.0.1; 0.0.0.0 in a container)
  --port N               STACKS_WATCH_PORT    port (default 8080)
  --root DIR             STACKS_WATCH_ROOT    the built app (default dist/ beside the server)
  --public-url URL       STACKS_WATCH_PUBLIC_URL  the https origin users open, e.g. https://watch.example.com (default:
                         the request's own, its scheme as a --trust-proxy proxy reports it)
  --connect-src LIST     STACKS_WATCH_CONNECT_SRC  more node origins the app may reach (what users may type in
                         Settings); the server's own nodes and the public Hiro nodes are always allowed
  --public-testnet-node URL  STACKS_WATCH_PUBLIC_TESTNET_NODE  the testnet node the app is told to use (default: the
                         node the relay follows, when the app can reach it from --public-url; else the public node)
  --public-mainnet-node URL  STACKS_WATCH_PUBLIC_MAINNET_NODE  the same for mainnet
  --no-relay             STACKS_WATCH_RELAY=off    serve the app only
and every relay option (npm run relay -- --help): --testnet-node, --mainnet-node, --data-dir, --database-url,
--trust-proxy, --max-devices-per-hour, … The relay answers on the same origin under /relay.`;

const OWN_VALUED = new Set([
  '--host',
  '--port',
  '--root',
  '--public-url',
  '--connect-src',
  '--public-testnet-node',
  '--public-mainnet-node',
]);

/** Takes the server's own flags out of `argv`; the rest are the relay's, read (and refused) by its own parser. */
export function readServerConfig(argv: readonly string[], env: NodeJS.ProcessEnv, defaultRoot: string): ServerConfig {
  const own = new Map<string, string>();
  const rest: string[] = [];
  let relayOn = !/^(off|false|0|no)$/i.test(env['STACKS_WATCH_RELAY'] ?? '');
  for (let index = 0; index < argv.length; index++) {
    const token = argv[index]!;
    const [flag = '', inline] = token.split(/=(.*)/s, 2);
    if (flag === '--no-relay') relayOn = false;
    else if (OWN_VALUED.has(flag)) {
      const value = inline ?? argv[++index];
      if (value === undefined) throw new Error(`${flag} needs a value`);
      own.set(flag, value);
    } else rest.push(token);
  }
  const port = Number(own.get('--port') ?? env['STACKS_WATCH_PORT'] ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('the port must be a number from 0 to 65535');
  const publicUrl = own.get('--public-url') ?? env['STACKS_WATCH_PUBLIC_URL'] ?? null;
  if (publicUrl !== null && !/^https?:\/\/[^/?#]+$/.test(publicUrl))
    throw new Error(
      `--public-url must be an origin such as https://watch.example.com, with no path (got "${publicUrl}")`,
    );
  const connectSrc = (own.get('--connect-src') ?? env['STACKS_WATCH_CONNECT_SRC'] ?? '')
    .split(/[\s,]+/)
    .filter(Boolean);
  const notOrigin = connectSrc.find((entry) => !/^https?:\/\/[^/?#\s]+\/?$/.test(entry));
  if (notOrigin)
    throw new Error(
      `--connect-src (STACKS_WATCH_CONNECT_SRC) takes http(s) origins such as https://node.example.com (got "${notOrigin}")`,
    );
  const publicNodes: Partial<Record<Network, string>> = {};
  for (const network of ['testnet', 'mainnet'] as const) {
    const flag = `--public-${network}-node`;
    const given = own.get(flag) ?? env[`STACKS_WATCH_PUBLIC_${network.toUpperCase()}_NODE`];
    if (given) publicNodes[network] = readPublicNode(flag, given, publicUrl);
  }
  const relayParsed = readConfig(rest, env);
  // Several servers on one host and one PostgreSQL: each instance named by the server's port, not the relay's default.
  const named = rest.some((token) => token.split('=')[0] === '--instance') || env['RELAY_INSTANCE'] !== undefined;
  const relayRead =
    relayParsed.databaseUrl && !named ? { ...relayParsed, instance: `${hostname()}:${port}` } : relayParsed;
  if (relayOn && publicUrl?.startsWith('https:')) requireRealContact(relayRead.vapidSubject, '--public-url');
  // The app's own origin comes first: declarative pushes open it (the relay's CORS needs nothing for it).
  const relaySettings: RelayConfig = publicUrl
    ? { ...relayRead, appOrigins: [publicUrl, ...relayRead.appOrigins.filter((origin) => origin !== publicUrl)] }
    : relayRead;
  return {
    host: own.get('--host') ?? env['STACKS_WATCH_HOST'] ?? '127.0.0.1',
    port,
    root: resolve(own.get('--root') ?? env['STACKS_WATCH_ROOT'] ?? defaultRoot),
    relay: relayOn ? relaySettings : null,
    relaySettings,
    publicUrl,
    connectSrc,
    publicNodes,
  };
}

/** A node for the app: an http(s) origin it can use from the public URL (else the server would hand out a dead one). */
function readPublicNode(flag: string, value: string, publicUrl: string | null): string {
  const example = `such as https://testnet-node.example.com`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${flag} must be the node's https origin, ${example} (got "${value}")`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash || url.username)
    throw new Error(`${flag} must be the node's https origin with no path, ${example} (got "${value}")`);
  const why = unusableFrom(url.origin, publicUrl);
  if (why)
    throw new Error(
      `${flag} ${url.origin} is ${why}, so the app opened on ${publicUrl} could not use it: name an https node ` +
        `phones can reach, ${example}`,
    );
  return url.origin;
}
