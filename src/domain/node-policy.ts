import { isLoopbackHost } from './loopback.ts';

/**
 * Who can let the app contact another node: Settings says it alike where it lists the nodes the app may contact and
 * where it refuses one the browser blocked (chain/page/policy-refusal.ts).
 */
export const POLICY_KEEPER = 'whoever runs this app’s server';

/**
 * Whether a node on this device may be among those the page can contact: the serving deployment's security policy
 * lists one (`allowed`, its runtime config's allowedNodes), or the server does not say which it lists.
 */
export const mayUseLocalNode = (allowed: readonly string[] | undefined): boolean =>
  allowed === undefined || allowed.some((url) => isLoopbackHost(new URL(url).hostname));
