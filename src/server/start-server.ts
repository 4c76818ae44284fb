import type { AddressInfo } from 'node:net';
import { contentSecurityPolicy, policyNodes } from './csp.ts';
import { closeServer } from '../relay/graceful-stop.ts';
import { startRelay, type RelayHooks, type RunningRelay } from '../relay/relay.ts';
import { createAppServer } from './app-server.ts';
import { publishNodes, type PublishedNodes } from './published-nodes.ts';
import { servedConfig } from './served-config.ts';
import { requireBuiltApp } from './static-files.ts';
import type { ServerConfig } from './server-config.ts';

export interface RunningServer {
  readonly url: string;
  /** The relay mounted under /relay, when enabled. */
  readonly relay: RunningRelay | null;
  readonly contentSecurityPolicy: string;
  /** The nodes the app is told about, in words for the start message. */
  readonly published: PublishedNodes;
  close(): Promise<void>;
}

export interface ServerExtras {
  /** The local devnet `npm start` runs: the app offers its demo accounts, and the policy allows it. */
  readonly devnet?: string;
  readonly relayHooks?: RelayHooks;
  readonly overrides?: ReadonlyMap<string, { readonly type: string; readonly body: string }>;
}

/**
 * The production server: the built app, its runtime config and, unless turned off, the relay's API on the same
 * origin. The policy's connect-src is built here, once, from what this server is configured to reach.
 */
export async function startServer(config: ServerConfig, extras: ServerExtras = {}): Promise<RunningServer> {
  await requireBuiltApp(config.root);
  // What the relay follows is not always what a phone can use: only nodes the app can reach are published.
  const published = publishNodes({
    followed: Object.fromEntries(
      Object.entries(config.relaySettings.nodes).map(([network, node]) => [network, node.url]),
    ),
    named: config.publicNodes,
    appOrigin: config.publicUrl,
  });
  const nodes = published.nodes;
  const connect = [...Object.values(nodes), ...(extras.devnet ? [extras.devnet] : []), ...config.connectSrc];
  const policy = contentSecurityPolicy({ connect });
  // The port is bound before the relay starts: a server that cannot listen judges and pushes nothing. Until the
  // relay is ready its routes answer 503.
  let relay: RunningRelay | null = null;
  const app = createAppServer({
    root: config.root,
    contentSecurityPolicy: policy,
    runtimeConfig: servedConfig({
      nodes,
      allowedNodes: policyNodes(connect),
      devnet: extras.devnet ?? null,
      relay: config.relay !== null,
      publicUrl: config.publicUrl,
      trustedProxies: config.relaySettings.trustedProxies,
    }),
    relay: config.relay ? () => relay?.api ?? null : null,
    ...(extras.overrides ? { overrides: extras.overrides } : {}),
  });
  await app.ready();
  const server = app.server;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, resolve);
  });
  try {
    relay = config.relay ? await startRelay(config.relay, { ...extras.relayHooks, listen: false }) : null;
  } catch (error) {
    await closeServer(server);
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`,
    relay,
    contentSecurityPolicy: policy,
    published,
    async close() {
      await closeServer(server);
      await relay?.close();
    },
  };
}
