import type { Network } from '../domain/network.ts';
import { checkRelayUrl } from '../domain/relay/relay-url.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { isRecord } from '../domain/is-record.ts';

/**
 * Settings the server hosting the app may provide next to it. `npm start` serves this file to point testnet
 * addresses at the local devnet; a normal deployment has no such file, and the app uses the public nodes.
 */
export const RUNTIME_CONFIG_PATH = '/stacks-watch-config.json';

export interface RuntimeConfig {
  /** The local devnet, standing in for testnet, with its control API. */
  readonly devnet: { readonly url: string } | null;
  /** A relay for alerts while the app is closed (`npm start` runs one): prefills its address in Settings. */
  readonly relay?: { readonly url: string } | null;
  /** The nodes the serving deployment follows (its relay's): each network's default node in the app. */
  readonly nodes?: Partial<Record<Network, { readonly url: string }>>;
  /**
   * The node origins the serving deployment's security policy lets the page contact (its connect-src, from the same
   * list): what Settings says a network's node may be. Absent where the server does not say (a static host).
   */
  readonly allowedNodes?: readonly string[];
}

export const NO_CONFIG: RuntimeConfig = { devnet: null, relay: null };

export function readRuntimeConfig(data: unknown): Result<RuntimeConfig, string> {
  if (!isRecord(data)) return err('the runtime config is not a JSON object');
  const devnet = data['devnet'];
  let devnetUrl: string | null = null;
  if (devnet !== undefined && devnet !== null) {
    const url = isRecord(devnet) ? devnet['url'] : undefined;
    if (typeof url !== 'string' || !/^https?:\/\/[^/]+$/.test(url)) {
      return err('“devnet.url” must be an http(s) origin such as http://127.0.0.1:3999');
    }
    devnetUrl = url;
  }
  const relay = data['relay'];
  let relayUrl: string | null = null;
  if (relay !== undefined && relay !== null) {
    const checked = checkRelayUrl(String((isRecord(relay) ? relay['url'] : undefined) ?? ''));
    if (!checked.ok) return err(`“relay.url” is not usable: ${checked.error}`);
    relayUrl = checked.value;
  }
  const nodes = readNodes(data['nodes']);
  if (!nodes.ok) return nodes;
  const allowed = data['allowedNodes'];
  if (allowed !== undefined && !(Array.isArray(allowed) && allowed.every((url) => isOrigin(url))))
    return err('“allowedNodes” must be a list of http(s) origins such as ["https://api.example.com"]');
  return ok({
    devnet: devnetUrl ? { url: devnetUrl } : null,
    relay: relayUrl ? { url: relayUrl } : null,
    ...(Object.keys(nodes.value).length > 0 ? { nodes: nodes.value } : {}),
    ...(allowed === undefined ? {} : { allowedNodes: allowed as string[] }),
  });
}

const isOrigin = (url: unknown): boolean => typeof url === 'string' && /^https?:\/\/[^/]+$/.test(url);

function readNodes(data: unknown): Result<Partial<Record<Network, { url: string }>>, string> {
  if (data === undefined || data === null) return ok({});
  if (!isRecord(data)) return err('“nodes” must be an object such as { "testnet": { "url": "https://…" } }');
  const nodes: Partial<Record<Network, { url: string }>> = {};
  for (const [network, node] of Object.entries(data)) {
    if (network !== 'mainnet' && network !== 'testnet')
      return err(`“nodes” names “${network}”; only “mainnet” and “testnet” are networks`);
    const url = isRecord(node) ? node['url'] : undefined;
    if (typeof url !== 'string' || !/^https?:\/\/[^/]+$/.test(url))
      return err(`“nodes.${network}.url” must be an http(s) origin such as https://api.example.com`);
    nodes[network] = { url };
  }
  return ok(nodes);
}
