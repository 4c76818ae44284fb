import { isLoopbackHost } from '../domain/loopback.ts';
import type { Network } from '../domain/network.ts';
import type { NodeChoices } from '../domain/node-settings.ts';
import { PUBLIC_NODES } from './public-nodes.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import { LOCAL_NODE_LIMITS, PUBLIC_NODE_DEFAULTS, type SchedulerOptions } from './scheduler.ts';

/** The node serving one network's addresses, and how hard it may be asked. */
export interface NodeConfig {
  readonly network: Network;
  readonly url: string;
  readonly name: string;
  /** Sent as `x-api-key` to this node only; never logged. */
  readonly apiKey: string | null;
  readonly limits: SchedulerOptions;
}

/** With an API key the public gateway allows 500 to 900 a minute: stay under the lowest. */
const KEYED_LIMITS: SchedulerOptions = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 6, perMinute: 480 };
/**
 * Someone's own node, not behind the public gateway: its budget is unknown, so a middle pace (what a watch list
 * of a few dozen addresses needs to catch up within a minute), raised or lowered by the node's own headers.
 */
const OWN_NODE_LIMITS: SchedulerOptions = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 6, perMinute: 240 };

/**
 * Mainnet and testnet go to the public nodes of @stacks/network, or to the nodes the serving deployment names;
 * testnet to the devnet when one runs next to the app.
 */
export function defaultNode(network: Network, runtime: RuntimeConfig): NodeConfig {
  if (network === 'testnet' && runtime.devnet) {
    return { network, url: runtime.devnet.url, name: 'Local devnet', apiKey: null, limits: LOCAL_NODE_LIMITS };
  }
  const served = runtime.nodes?.[network];
  if (served)
    return { network, url: served.url, name: new URL(served.url).host, apiKey: null, limits: PUBLIC_NODE_DEFAULTS };
  return { network, url: PUBLIC_NODES[network], name: 'Hiro public API', apiKey: null, limits: PUBLIC_NODE_DEFAULTS };
}

/**
 * The node the user chose for a network, else the default. Its pace: the budget the user set; else, on this
 * device (loopback), as a devnet's; behind the public gateway (Hiro's hosts), its published budget (a key raises
 * it); any other host, an own node's.
 */
export function nodeFor(network: Network, runtime: RuntimeConfig, choices: NodeChoices): NodeConfig {
  const choice = choices[network];
  if (!choice) return defaultNode(network, runtime);
  const host = new URL(choice.url).hostname;
  const base = isLoopbackHost(host)
    ? LOCAL_NODE_LIMITS
    : isPublicGateway(host)
      ? choice.apiKey
        ? KEYED_LIMITS
        : PUBLIC_NODE_DEFAULTS
      : OWN_NODE_LIMITS;
  return {
    network,
    url: choice.url,
    name: `Custom node (${new URL(choice.url).host})`,
    apiKey: choice.apiKey,
    limits: choice.perMinute ? { ...base, perMinute: choice.perMinute } : base,
  };
}

const isPublicGateway = (host: string): boolean => host === 'hiro.so' || host.endsWith('.hiro.so');
