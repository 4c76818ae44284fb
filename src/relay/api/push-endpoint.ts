import { addressReach } from './address-reach.ts';

/** The browsers' push services: a subscription endpoint must be on one of these (or on an origin the operator allows). */
export const PUSH_SERVICE_HOSTS: readonly string[] = [
  'fcm.googleapis.com',
  '*.push.services.mozilla.com',
  '*.notify.windows.com',
  'web.push.apple.com',
  '*.push.apple.com',
];

const matches = (pattern: string, host: string): boolean =>
  pattern.startsWith('*.') ? host.endsWith(pattern.slice(1)) && host.length > pattern.length - 1 : host === pattern;

/**
 * Why an endpoint is refused, or null when the relay may send to it. Decided once, when a device registers:
 * the relay only ever sends to endpoints that passed here, so it cannot be made to call arbitrary hosts.
 */
export function refuseEndpoint(endpoint: string, allowedOrigins: readonly string[]): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'the subscription endpoint is not a URL; expected the https URL PushManager.subscribe() gave';
  }
  if (url.username || url.password) return 'the subscription endpoint may not carry a user name or password';
  if (allowedOrigins.includes(url.origin)) return null;
  if (url.protocol !== 'https:') return `the subscription endpoint must be https (got ${url.protocol})`;
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  const reach = addressReach(host);
  if (reach !== null) {
    const kind = reach === 'public' ? 'an IP address' : 'a private, loopback or link-local address';
    return `the subscription endpoint is ${kind}; expected a browser push service (${PUSH_SERVICE_HOSTS.join(', ')})`;
  }
  if (!PUSH_SERVICE_HOSTS.some((pattern) => matches(pattern, host)))
    return `the subscription endpoint's host ${host} is not a known browser push service; expected one of ${PUSH_SERVICE_HOSTS.join(', ')}`;
  if (url.port && url.port !== '443') return 'the subscription endpoint must use the standard https port';
  return null;
}

/** How many of these endpoints each refused push service origin holds (told once at start, per origin). */
export function refusedOrigins(endpoints: readonly string[], allowedOrigins: readonly string[]): Map<string, number> {
  const refused = new Map<string, number>();
  for (const endpoint of endpoints)
    if (refuseEndpoint(endpoint, allowedOrigins)) {
      const origin = new URL(endpoint).origin;
      refused.set(origin, (refused.get(origin) ?? 0) + 1);
    }
  return refused;
}

/**
 * Reads a list of origins (RELAY_PUSH_ALLOW, RELAY_APP_ORIGINS): comma-separated http(s) origins such as
 * `http://localhost:8990`, each a whole host (no wildcard, path or user). `setting` names it in the refusal.
 * A host label may hold `_` (`http://push_stand_in:8990`): DNS and the URL standard take it, and container and
 * internal host names use it; the entry is only ever compared with an endpoint's origin, never matched as a pattern.
 */
export function readAllowedOrigins(value: string | undefined, setting: string): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const refused = new Error(`${setting} entry "${item}" must be an http(s) origin such as http://localhost:8990`);
      let url: URL;
      try {
        url = new URL(item);
      } catch {
        throw refused;
      }
      const whole = /^(\[[\da-f:.]+\]|\w([\w-]*\w)?(\.\w([\w-]*\w)?)*)$/i.test(url.hostname);
      if (!/^https?:$/.test(url.protocol) || !whole || url.origin !== item.replace(/\/$/, '')) throw refused;
      return url.origin;
    });
}
