import { err, ok, type Result } from '../domain/result.ts';

/**
 * Settings the server hosting the app may provide next to it. `npm start` serves this file to point testnet
 * addresses at the local devnet; a normal deployment has no such file, and the app uses the public nodes.
 */
export const RUNTIME_CONFIG_PATH = '/stacks-watch-config.json';

export interface RuntimeConfig {
  /** The local devnet, standing in for testnet, with its control API. */
  readonly devnet: { readonly url: string } | null;
  /** The push relay for alerts while the app is closed (`npm start` runs one), prefilled in Settings. */
  readonly relay?: { readonly url: string } | null;
}

const NO_CONFIG: RuntimeConfig = { devnet: null, relay: null };
const ORIGIN = /^https?:\/\/[^/]+$/;

export function readRuntimeConfig(data: unknown): Result<RuntimeConfig, string> {
  if (typeof data !== 'object' || data === null) return err('the runtime config is not a JSON object');
  const devnet = readOrigin(data, 'devnet', 'http://127.0.0.1:3999');
  if (!devnet.ok) return devnet;
  const relay = readOrigin(data, 'relay', 'http://127.0.0.1:3990');
  if (!relay.ok) return relay;
  return ok({ devnet: devnet.value, relay: relay.value });
}

/** An optional `{ url }` whose url is an http(s) origin. */
function readOrigin(data: object, field: string, example: string): Result<{ readonly url: string } | null, string> {
  const value = (data as Record<string, unknown>)[field];
  if (value === undefined || value === null) return ok(null);
  const url = (value as Record<string, unknown>)['url'];
  if (typeof url !== 'string' || !ORIGIN.test(url))
    return err(`“${field}.url” must be an http(s) origin such as ${example}`);
  return ok({ url });
}

/** Reads the runtime config; none (404, offline) means the defaults. A malformed one is reported and ignored. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = fetch): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await fetchImpl(RUNTIME_CONFIG_PATH, { cache: 'no-store' });
  } catch {
    return NO_CONFIG;
  }
  if (!response.ok || !response.headers.get('content-type')?.includes('json')) return NO_CONFIG;
  const config = readRuntimeConfig(await response.json().catch(() => null));
  if (!config.ok) console.warn(`Ignoring ${RUNTIME_CONFIG_PATH}: ${config.error}`);
  return config.ok ? config.value : NO_CONFIG;
}

let shared: Promise<RuntimeConfig> | null = null;
/** The runtime config, fetched once per page. */
export const runtimeConfig = (): Promise<RuntimeConfig> => (shared ??= loadRuntimeConfig());
