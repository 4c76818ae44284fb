import type { BlockList } from 'node:net';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import type { NodeConfig } from '../chain/networks.ts';
import { PUBLIC_NODES } from '../chain/public-nodes.ts';
import { LOCAL_NODE_LIMITS, PUBLIC_NODE_DEFAULTS } from '../chain/scheduler.ts';
import { isLoopbackHost } from '../domain/loopback.ts';
import type { Network } from '../domain/network.ts';
import { readCaps, type RegistrationCaps } from './api/caps-config.ts';
import { readTrustedProxies } from './api/client-address.ts';
import { readAllowedOrigins } from './api/push-endpoint.ts';
import { OPS_FLAGS, OPS_USAGE, readOpsConfig, type OpsConfig } from './ops-config.ts';
import { ACTIVE_DEVICES } from './engine/active-devices.ts';
import { defaultPushThreads } from './push/thread-poster.ts';

export interface RelayConfig {
  readonly nodes: Partial<Record<Network, NodeConfig>>;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /**
   * This instance's name among those sharing one PostgreSQL database (its leases, its claims, its own chain progress);
   * stable across restarts. '' on the embedded database, which serves one process.
   */
  readonly instance: string;
  readonly host: string;
  readonly port: number;
  readonly appOrigins: readonly string[];
  readonly pushAllow: readonly string[];
  readonly vapidSubject: string;
  readonly requestsPerMinute: number;
  /** Worker threads that encrypt and post pushes; 0: on the event loop. */
  readonly pushThreads: number;
  /** Devices whose alerts are kept in memory at most; quiet ones beyond it are read from storage when needed. */
  readonly activeDevices: number;
  readonly trustedProxies: BlockList | null;
  readonly caps: RegistrationCaps;
  /** Operations: `/metrics`, the admin token, a lost VAPID key's way out (ops-config.ts). */
  readonly ops: OpsConfig;
}

export const DEFAULT_PORT = 3990;

export const USAGE = `npm run relay -- [options]   (each option also as an environment variable)
  --testnet-node URL     RELAY_TESTNET_NODE   node for testnet addresses (e.g. the devnet, http://127.0.0.1:3999)
  --mainnet-node URL     RELAY_MAINNET_NODE   node for mainnet addresses
                         with neither, both networks follow the public Hiro nodes; with one, only that network
  --data-dir DIR         RELAY_DATA_DIR       embedded database and VAPID keys (default ./relay-data)
  --database-url URL     DATABASE_URL         PostgreSQL instead of the embedded database
  --instance NAME        RELAY_INSTANCE       this instance's name when several share one PostgreSQL database
                         (default: the host name and port); keep it the same across restarts
  --host HOST            RELAY_HOST           address to listen on (default 127.0.0.1)
  --port N               RELAY_PORT           port (default ${DEFAULT_PORT})
  --app-origins LIST     RELAY_APP_ORIGINS    comma-separated app origins allowed by CORS
  --push-allow LIST      RELAY_PUSH_ALLOW     extra push service origins (a local stand-in: http://localhost:8990)
  --vapid-subject S      RELAY_VAPID_SUBJECT  mailto: or https: contact for push services
  --rate N               RELAY_REQUESTS_PER_MINUTE  requests per client address per minute (default 120)
  --node-rate N          RELAY_NODE_REQUESTS_PER_MINUTE  requests a minute to each followed node (default 6000 for a
                         local node, the public nodes' limit otherwise)
  --push-threads N       RELAY_PUSH_THREADS   worker threads that encrypt and post pushes; 0 keeps them on the event
                         loop (default: 2 from 2 cores up, then one less than the cores, at most 4; none on one
                         core: ${defaultPushThreads()} here)
  --active-devices N     RELAY_ACTIVE_DEVICES devices whose alerts stay in memory (~13 kB each); those quiet longest
                         beyond it are read from the database again when something of theirs happens (default
                         ${ACTIVE_DEVICES})
  --trust-proxy LIST     RELAY_TRUST_PROXY    proxies (IPs, CIDR ranges, "loopback") whose X-Forwarded-For names the
                         client that limits key on; without it X-Forwarded-For is ignored
  --max-devices-per-hour N  RELAY_MAX_DEVICES_PER_HOUR  new devices per client address per hour (default 20)
  --max-devices N        RELAY_MAX_DEVICES    devices in all (default 100000)
  --max-principals N     RELAY_MAX_PRINCIPALS distinct addresses followed in all (default 500000)
  --max-new-principals-per-hour N  RELAY_MAX_NEW_PRINCIPALS_PER_HOUR  addresses a device may add to its list in
                         any hour (default 2000; removing and keeping are free)
  --device-max-idle-days N  RELAY_DEVICE_MAX_IDLE_DAYS  a device that has not checked in (registered or caught up)
                         for this long is forgotten with its watches (default 30)
${OPS_USAGE}`;

/** Reads flags, then the environment; every bad value is refused with what was expected. */
export function readConfig(argv: readonly string[], env: NodeJS.ProcessEnv): RelayConfig {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'testnet-node': { type: 'string' },
      'mainnet-node': { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      instance: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'app-origins': { type: 'string' },
      'push-allow': { type: 'string' },
      'vapid-subject': { type: 'string' },
      rate: { type: 'string' },
      'node-rate': { type: 'string' },
      'push-threads': { type: 'string' },
      'active-devices': { type: 'string' },
      'trust-proxy': { type: 'string' },
      'max-devices-per-hour': { type: 'string' },
      'max-devices': { type: 'string' },
      'max-principals': { type: 'string' },
      'max-new-principals-per-hour': { type: 'string' },
      'device-max-idle-days': { type: 'string' },
      ...OPS_FLAGS,
    },
    strict: true,
  });
  const pick = (flag: keyof typeof values, name: string): string | undefined => {
    const value = values[flag];
    return typeof value === 'string' ? value : (env[name] ?? undefined);
  };
  const given: Partial<Record<Network, string>> = {};
  const testnet = pick('testnet-node', 'RELAY_TESTNET_NODE');
  const mainnet = pick('mainnet-node', 'RELAY_MAINNET_NODE');
  if (testnet) given.testnet = testnet;
  if (mainnet) given.mainnet = mainnet;
  const urls = Object.keys(given).length > 0 ? given : PUBLIC_NODES;
  const nodeRate = pick('node-rate', 'RELAY_NODE_REQUESTS_PER_MINUTE');
  const perMinute = nodeRate === undefined ? undefined : Number(nodeRate);
  if (perMinute !== undefined && (!Number.isInteger(perMinute) || perMinute < 1))
    throw new Error('the node request rate must be a whole number of requests a minute');
  const nodes: Partial<Record<Network, NodeConfig>> = {};
  for (const [network, url] of Object.entries(urls) as [Network, string][])
    nodes[network] = nodeConfig(network, url, perMinute);
  const port = Number(pick('port', 'RELAY_PORT') ?? DEFAULT_PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error('the port must be a number from 0 to 65535');
  const rate = Number(pick('rate', 'RELAY_REQUESTS_PER_MINUTE') ?? 120);
  if (!Number.isInteger(rate) || rate < 1)
    throw new Error('the request rate must be a whole number of requests a minute');
  const threads = pick('push-threads', 'RELAY_PUSH_THREADS');
  const pushThreads = threads === undefined ? defaultPushThreads() : Number(threads);
  if (!Number.isInteger(pushThreads) || pushThreads < 0 || pushThreads > 64)
    throw new Error('the push threads must be a whole number from 0 (on the event loop) to 64');
  const activeDevices = Number(pick('active-devices', 'RELAY_ACTIVE_DEVICES') ?? ACTIVE_DEVICES);
  if (!Number.isInteger(activeDevices) || activeDevices < 1)
    throw new Error('the active devices must be a whole number of devices, at least 1');
  const subject = pick('vapid-subject', 'RELAY_VAPID_SUBJECT') ?? DEFAULT_VAPID_SUBJECT;
  if (!/^(mailto:|https:)/.test(subject)) throw new Error('the VAPID subject must be a mailto: or https: URL');
  const appOrigins = readAllowedOrigins(pick('app-origins', 'RELAY_APP_ORIGINS'), '--app-origins (RELAY_APP_ORIGINS)');
  if (appOrigins[0]?.startsWith('https:')) requireRealContact(subject, '--app-origins');
  const databaseUrl = readDatabaseUrl(pick('database-url', 'DATABASE_URL'));
  const instance = databaseUrl ? (pick('instance', 'RELAY_INSTANCE') ?? `${hostname()}:${port}`) : '';
  if (databaseUrl && !/^[\w.:@-]{1,100}$/.test(instance))
    throw new Error('the instance name must be 1-100 letters, digits and . : @ _ - (such as relay-2)');
  return {
    nodes,
    dataDir: pick('data-dir', 'RELAY_DATA_DIR') ?? 'relay-data',
    databaseUrl,
    instance,
    host: pick('host', 'RELAY_HOST') ?? '127.0.0.1',
    port,
    appOrigins,
    pushAllow: readAllowedOrigins(pick('push-allow', 'RELAY_PUSH_ALLOW'), '--push-allow (RELAY_PUSH_ALLOW)'),
    vapidSubject: subject,
    requestsPerMinute: rate,
    pushThreads,
    activeDevices,
    trustedProxies: readTrustedProxies(pick('trust-proxy', 'RELAY_TRUST_PROXY')),
    caps: readCaps({
      devicesPerClientPerHour: pick('max-devices-per-hour', 'RELAY_MAX_DEVICES_PER_HOUR'),
      devices: pick('max-devices', 'RELAY_MAX_DEVICES'),
      principals: pick('max-principals', 'RELAY_MAX_PRINCIPALS'),
      newPrincipalsPerDevicePerHour: pick('max-new-principals-per-hour', 'RELAY_MAX_NEW_PRINCIPALS_PER_HOUR'),
      deviceMaxIdleDays: pick('device-max-idle-days', 'RELAY_DEVICE_MAX_IDLE_DAYS'),
    }),
    ops: readOpsConfig(values, env),
  };
}

/**
 * The PostgreSQL connection string, checked before anything connects: a postgres:// or postgresql:// URL with a host
 * (or a Unix socket: ?host=/run/postgresql, or a socket: URL). The refusal names the setting and the scheme, never the password.
 */
function readDatabaseUrl(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  const expected =
    '--database-url (DATABASE_URL) must be a PostgreSQL URL such as postgres://relay:password@127.0.0.1:5432/relay';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${expected} (the value given is not a URL)`);
  }
  if (url.protocol === 'socket:') return value;
  if (!/^postgres(ql)?:$/.test(url.protocol)) throw new Error(`${expected} (got a ${url.protocol} URL)`);
  // A Unix socket is named by ?host=/run/postgresql (libpq's way), with no host before the path.
  if (!url.hostname && !url.searchParams.has('host')) throw new Error(`${expected} (the URL names no host)`);
  return value;
}

/** What push services are told when no contact is given: fine on one machine, refused by Apple's push service. */
export const DEFAULT_VAPID_SUBJECT = 'mailto:relay@localhost';

/** Hosts that name no one: localhost, the reserved example and test names (RFC 2606, RFC 6761), a bare name. */
const NO_ONE = /(^|\.)(localhost|example|test|invalid|local)$|(^|\.)example\.(com|org|net)$|^[^.]*$/i;

/**
 * A relay serving an app on https reaches real phones: Apple's push service answers 403 BadJwtToken to a VAPID
 * token whose subject is not a contact it accepts (`mailto:relay@localhost`), so every push to an iPhone would fail.
 * `because` names the setting that made the app's origin https.
 */
export function requireRealContact(subject: string, because: string): void {
  const host = contactHost(subject);
  if (host && !NO_ONE.test(host)) return;
  const given = subject === DEFAULT_VAPID_SUBJECT ? `no --vapid-subject (the default is ${subject})` : `"${subject}"`;
  throw new Error(
    `with an https app origin (${because}) the relay needs a real contact for push services: ${given} names no one, and ` +
      `Apple's push service refuses every push signed with it (403 BadJwtToken), so no iPhone or iPad would get an ` +
      `alert. Set --vapid-subject (RELAY_VAPID_SUBJECT) to your mailto: address or an https: page about this ` +
      `server, such as mailto:you@yourdomain.org.`,
  );
}

/** The domain a `mailto:` contact's address is at, or an `https:` contact's host; '' when there is none. */
function contactHost(subject: string): string {
  try {
    const url = new URL(subject);
    if (url.protocol !== 'mailto:') return url.hostname;
    return /@([^@?]+)$/.exec(decodeURIComponent(url.pathname))?.[1] ?? '';
  } catch {
    return '';
  }
}

function nodeConfig(network: Network, url: string, perMinute: number | undefined): NodeConfig {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error(`the ${network} node must be an http(s) URL such as http://127.0.0.1:3999 (got "${url}")`);
  }
  if (!/^https?:$/.test(parsed.protocol)) throw new Error(`the ${network} node must be an http(s) URL (got "${url}")`);
  const local = isLoopbackHost(parsed.hostname);
  return {
    network,
    url: parsed.origin,
    name: local ? 'Local node' : parsed.host,
    apiKey: null,
    // A local node has no gateway in front of it; a public one allows a few dozen requests a minute without a key.
    // Each first sync of a principal costs two requests: 10,000 new principals take over three minutes at 6,000.
    limits: {
      ...(local ? LOCAL_NODE_LIMITS : PUBLIC_NODE_DEFAULTS),
      ...(perMinute ? { perMinute } : {}),
    },
  };
}
