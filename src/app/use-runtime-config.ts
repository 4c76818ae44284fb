import { useEffect, useState } from 'react';
import type { RuntimeConfig } from '../chain/runtime-config.ts';
import { runtimeConfig } from '../chain/page/runtime-config-load.ts';

/** The runtime config once known (null before). */
export function useRuntimeConfig(): RuntimeConfig | null {
  const [config, setConfig] = useState<RuntimeConfig | null>(null);
  useEffect(() => {
    let live = true;
    void runtimeConfig().then((value) => live && setConfig(value));
    return () => {
      live = false;
    };
  }, []);
  return config;
}
