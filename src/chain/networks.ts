import { STACKS_MAINNET, STACKS_TESTNET } from '@stacks/network';
import type { Network } from '../domain/network.ts';
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

/** Mainnet and testnet go to the public nodes of @stacks/network; testnet to the devnet when one runs next to the app. */
export function defaultNode(network: Network, runtime: RuntimeConfig): NodeConfig {
  if (network === 'testnet' && runtime.devnet) {
    return { network, url: runtime.devnet.url, name: 'Local devnet', apiKey: null, limits: LOCAL_LIMITS };
  }
  const base = network === 'mainnet' ? STACKS_MAINNET : STACKS_TESTNET;
  return { network, url: base.client.baseUrl, name: 'Hiro public API', apiKey: null, limits: PUBLIC_NODE_DEFAULTS };
}
