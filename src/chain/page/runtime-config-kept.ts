import { platformFetch, sendRequest } from '../outbound.ts';
import { NO_CONFIG, readRuntimeConfig, RUNTIME_CONFIG_PATH, type RuntimeConfig } from '../runtime-config.ts';

/** Where the last config is kept on the device (store/runtime-config-memory.ts in the page). */
export interface KeptConfig {
  read(): Promise<unknown>;
  write(raw: unknown): Promise<void>;
  forget(): Promise<void>;
}

const WRITE_TRIES = 3;
/**
 * The answers that mean "this server has no config": the app's own server says 204, a static host 404 (or 410);
 * anything else that is not one is no news.
 */
const GONE = [204, 404, 410];

/**
 * The runtime config, kept: what the server sends is stored before it is used. Only the server saying it has none
 * (204, 404 or 410) forgets the kept one: the deployment dropped it. Every other answer that is not the config (offline, a
 * 5xx, a 401/403/429, a CDN's challenge page, a captive portal's page, HTML or anything else not JSON) is treated as
 * the server out of reach and the kept one is used, so that an address is never moved to another node (the public
 * ones) than the one configured for it.
 */
export async function loadKeptRuntimeConfig(
  kept: KeptConfig,
  fetchImpl: typeof fetch = platformFetch,
  origin: string = globalThis.location?.origin ?? '',
): Promise<RuntimeConfig> {
  let response: Response | null;
  try {
    response = await sendRequest('app', RUNTIME_CONFIG_PATH, { cache: 'no-store' }, fetchImpl);
  } catch {
    response = null;
  }
  const fromElsewhere =
    response !== null && (response.redirected || (response.url !== '' && !response.url.startsWith(`${origin}/`)));
  if (response !== null && !fromElsewhere && GONE.includes(response.status)) {
    await kept.forget().catch(() => undefined);
    return NO_CONFIG;
  }
  if (response === null || fromElsewhere || !response.ok || !response.headers.get('content-type')?.includes('json'))
    return fromMemory(kept);
  const raw: unknown = await response.json().catch(() => undefined);
  const config = readRuntimeConfig(raw);
  if (!config.ok) {
    console.warn(`Ignoring ${RUNTIME_CONFIG_PATH}: ${config.error}`);
    return fromMemory(kept);
  }
  await keep(kept, raw);
  return config.value;
}

async function fromMemory(kept: KeptConfig): Promise<RuntimeConfig> {
  const raw = await kept.read().catch(() => undefined);
  if (raw === undefined) return NO_CONFIG;
  const config = readRuntimeConfig(raw);
  return config.ok ? config.value : NO_CONFIG;
}

/** Stored before it is used; a refused write is tried again, and the next start writes it anew regardless. */
async function keep(kept: KeptConfig, raw: unknown): Promise<void> {
  for (let attempt = 1; attempt <= WRITE_TRIES; attempt += 1) {
    try {
      return await kept.write(raw);
    } catch (error) {
      if (attempt === WRITE_TRIES) console.warn('Could not keep the runtime config for offline starts', error);
      else await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
