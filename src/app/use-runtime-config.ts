import { useEffect, useState } from 'react';
import { runtimeConfig, type RuntimeConfig } from '../chain/runtime-config.ts';

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
