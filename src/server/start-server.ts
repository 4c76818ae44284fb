import type { AddressInfo } from 'node:net';
import { contentSecurityPolicy } from '../../scripts/csp.ts';
import { closeServer } from '../relay/graceful-stop.ts';
import { startRelay, type RelayHooks, type RunningRelay } from '../relay/relay.ts';
import { createAppServer } from './app-server.ts';
import { publishNodes, type PublishedNodes } from './published-nodes.ts';
import { servedConfig } from './served-config.ts';
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
  // What the relay follows is not always what a phone can use: only nodes the app can reach are published.
  const published = publishNodes({
    followed: Object.fromEntries(
      Object.entries(config.relaySettings.nodes).map(([network, node]) => [network, node.url]),
    ),
    named: config.publicNodes,
    appOrigin: config.publicUrl,
  });
  const nodes = published.nodes;
  const policy = contentSecurityPolicy({
    connect: [...Object.values(nodes), ...(extras.devnet ? [extras.devnet] : []), ...config.connectSrc],
  });
  const relay = config.relay ? await startRelay(config.relay, { ...extras.relayHooks, listen: false }) : null;
  const server = createAppServer({
    root: config.root,
    contentSecurityPolicy: policy,
    runtimeConfig: servedConfig({
      nodes,
      devnet: extras.devnet ?? null,
      relay: relay !== null,
      publicUrl: config.publicUrl,
      trustedProxies: config.relaySettings.trustedProxies,
    }),
    relay: relay?.handler ?? null,
    ...(extras.overrides ? { overrides: extras.overrides } : {}),
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (error) {
    await relay?.close();
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
