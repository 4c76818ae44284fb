import { PUBLIC_NODES } from '../chain/public-nodes.ts';
import { TRUSTED_TYPES_POLICY } from '../domain/trusted-types.ts';

/**
 * The Content Security Policy the app is served with. Static: it cannot follow what a user later types in
 * Settings (a custom node), so a deployment lists its nodes in `connect` (see README, "Content Security Policy").
 */

/** An http(s) origin and its WebSocket twin (the realtime feed). */
function withSocket(url: string): string[] {
  const { origin, protocol, host } = new URL(url);
  return [origin, `${protocol === 'https:' ? 'wss' : 'ws'}://${host}`];
}

/** Directives that hold wherever the app is served; the build puts these in a meta tag too. */
export const BASE_DIRECTIVES: readonly string[] = [
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "require-trusted-types-for 'script'",
  `trusted-types ${TRUSTED_TYPES_POLICY}`,
];

/**
 * The http(s) origins the policy's connect-src lists besides the page's own: the public nodes and `connect`. The
 * served runtime config tells the page the same list (served-config.ts), for Settings to say which nodes it may use.
 */
export const policyNodes = (connect: readonly string[] = []): string[] => [
  ...new Set([...Object.values(PUBLIC_NODES), ...connect].map((url) => new URL(url).origin)),
];

/** The full policy for a response header: the base, `default-src`, the nodes it may reach and `frame-ancestors`. */
export function contentSecurityPolicy(options: { connect?: readonly string[] } = {}): string {
  const nodes = policyNodes(options.connect).flatMap(withSocket);
  return [
    "default-src 'self'",
    ...BASE_DIRECTIVES,
    `connect-src 'self' ${[...new Set(nodes)].join(' ')}`,
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Extra origins from the environment (`STACKS_WATCH_CONNECT_SRC="https://node.example.com https://…"`). */
export const connectFromEnvironment = (value = process.env['STACKS_WATCH_CONNECT_SRC'] ?? ''): string[] =>
  value.split(/[\s,]+/).filter(Boolean);
