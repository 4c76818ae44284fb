import { useEffect, useState } from 'react';
import { originOf } from '../domain/privacy/disclosure.ts';
import { browserPush } from './pwa/sw-bridge.ts';

/** The host of this browser's push service (from its push subscription), when alerts while closed are on. */
export function usePushServiceHost(enabled: boolean): string | null {
  const [host, setHost] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    browserPush
      .current()
      .then((subscription) => {
        const endpoint = (subscription as { endpoint?: unknown } | null)?.endpoint;
        const origin = typeof endpoint === 'string' ? originOf(endpoint) : null;
        if (live && origin) setHost(new URL(origin).host);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [enabled]);
  return enabled ? host : null;
}
