import { isIP } from 'node:net';

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
  if (isIP(host)) {
    const kind = isPrivateAddress(host) ? 'a private, loopback or link-local address' : 'an IP address';
    return `the subscription endpoint is ${kind}; expected a browser push service (${PUSH_SERVICE_HOSTS.join(', ')})`;
  }
  if (!PUSH_SERVICE_HOSTS.some((pattern) => matches(pattern, host)))
    return `the subscription endpoint's host ${host} is not a known browser push service; expected one of ${PUSH_SERVICE_HOSTS.join(', ')}`;
  if (url.port && url.port !== '443') return 'the subscription endpoint must use the standard https port';
  return null;
}

/** Loopback, private (RFC 1918, ULA), link-local, CGNAT, unspecified and IPv4-mapped forms of those. */
export function isPrivateAddress(ip: string): boolean {
  const lower = ip.toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (mapped?.[1]) return isPrivateAddress(mapped[1]);
  if (isIP(lower) === 4) {
    const [a = 0, b = 0] = lower.split('.').map(Number);
    return (
      a === 0 ||
      a === 10 ||
      a === 127 ||
      (a === 100 && b >= 64 && b <= 127) ||
      (a === 169 && b === 254) ||
      (a === 172 && b >= 16 && b <= 31) ||
      (a === 192 && b === 168)
    );
  }
  return lower === '::' || lower === '::1' || /^f[cd]/.test(lower) || /^fe[89ab]/.test(lower);
}

/** Reads RELAY_PUSH_ALLOW: comma-separated origins such as `http://localhost:8990`. */
export function readAllowedOrigins(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const url = new URL(item);
      if (url.origin !== item.replace(/\/$/, ''))
        throw new Error(`RELAY_PUSH_ALLOW entry "${item}" must be an origin such as http://localhost:8990`);
      return url.origin;
    });
}
