import { STACKS_MAINNET, STACKS_TESTNET } from '@stacks/network';
import type { Network } from '../domain/network.ts';
import type { NodeChoices } from '../domain/node-settings.ts';
import type { RuntimeConfig } from './runtime-config.ts';
import { PUBLIC_NODE_DEFAULTS, type SchedulerOptions } from './scheduler.ts';

/** The node serving one network's addresses, and how hard it may be asked. */
export interface NodeConfig {
  readonly network: Network;
  readonly url: string;
  readonly name: string;
  /** Sent as `x-api-key` to this node only; never logged. */
  readonly apiKey: string | null;
  readonly limits: SchedulerOptions;
}

/** A local devnet has no gateway in front of it: no budget to respect beyond being reasonable. */
const LOCAL_LIMITS: SchedulerOptions = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: 6000 };
/** With an API key the public gateway allows 500 to 900 a minute: stay under the lowest. */
const KEYED_LIMITS: SchedulerOptions = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 6, perMinute: 480 };

/**
 * Mainnet and testnet go to the public nodes of @stacks/network, or to the nodes the serving deployment names;
 * testnet to the devnet when one runs next to the app.
 */
export function defaultNode(network: Network, runtime: RuntimeConfig): NodeConfig {
  if (network === 'testnet' && runtime.devnet) {
    return { network, url: runtime.devnet.url, name: 'Local devnet', apiKey: null, limits: LOCAL_LIMITS };
  }
  const served = runtime.nodes?.[network];
  if (served)
    return { network, url: served.url, name: new URL(served.url).host, apiKey: null, limits: PUBLIC_NODE_DEFAULTS };
  const base = network === 'mainnet' ? STACKS_MAINNET : STACKS_TESTNET;
  return { network, url: base.client.baseUrl, name: 'Hiro public API', apiKey: null, limits: PUBLIC_NODE_DEFAULTS };
}

/** The node the user chose for a network, else the default; a key raises the request budget. */
export function nodeFor(network: Network, runtime: RuntimeConfig, choices: NodeChoices): NodeConfig {
  const choice = choices[network];
  if (!choice) return defaultNode(network, runtime);
  return {
    network,
    url: choice.url,
    name: `Custom node (${new URL(choice.url).host})`,
    apiKey: choice.apiKey,
    limits: choice.apiKey ? KEYED_LIMITS : PUBLIC_NODE_DEFAULTS,
  };
}
