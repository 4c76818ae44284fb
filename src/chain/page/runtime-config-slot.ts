import type { RuntimeConfig } from '../runtime-config.ts';

let loader: (() => Promise<RuntimeConfig>) | null = null;

/**
 * How the page loads the runtime config, kept on the device (runtime-config-kept.ts): set by the page's entry before
 * anything asks for the config, in a module of its own so that the entry loads the config code only when asked.
 */
export const keepRuntimeConfig = (load: () => Promise<RuntimeConfig>): void => {
  loader = load;
};

export const keptLoader = (): (() => Promise<RuntimeConfig>) | null => loader;
