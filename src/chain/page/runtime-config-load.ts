import { platformFetch, sendRequest } from '../outbound.ts';
import { NO_CONFIG, readRuntimeConfig, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../runtime-config.ts';
import { keptLoader } from './runtime-config-slot.ts';

/** Reads the runtime config; none (404, offline) means the defaults. A malformed one is reported and ignored. */
export async function loadRuntimeConfig(fetchImpl: typeof fetch = platformFetch): Promise<RuntimeConfig> {
  let response: Response;
  try {
    response = await sendRequest('app', RUNTIME_CONFIG_PATH, { cache: 'no-store' }, fetchImpl);
  } catch {
    return NO_CONFIG;
  }
  if (!response.ok || !response.headers.get('content-type')?.includes('json')) return NO_CONFIG;
  const config = readRuntimeConfig(await response.json().catch(() => null));
  if (!config.ok) console.warn(`Ignoring ${RUNTIME_CONFIG_PATH}: ${config.error}`);
  return config.ok ? config.value : NO_CONFIG;
}

let shared: Promise<RuntimeConfig> | null = null;
/** The runtime config, fetched once per page: kept on the device where the page says how (runtime-config-slot.ts). */
export const runtimeConfig = (): Promise<RuntimeConfig> => (shared ??= keptLoader()?.() ?? loadRuntimeConfig());
