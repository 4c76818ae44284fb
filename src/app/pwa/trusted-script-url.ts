import { TRUSTED_TYPES_POLICY } from '../../domain/trusted-types.ts';

/**
 * Trusted Types: the served policy (`require-trusted-types-for 'script'`) makes the browser refuse a plain string
 * where a script URL goes, and registering the service worker is such a place. This one policy lets through only
 * the app's own service worker script; nothing else in the app creates scripts from strings.
 */
interface TrustedTypePolicyFactory {
  createPolicy(
    name: string,
    rules: { createScriptURL(url: string): string },
  ): { createScriptURL(url: string): unknown };
}

const ALLOWED = new Set(['/sw.js']);
let policy: { createScriptURL(url: string): unknown } | null = null;

/** The script URL as the browser wants it: a TrustedScriptURL where Trusted Types exist, else the string. */
export function trustedServiceWorkerUrl(url: string): string {
  const factory = (globalThis as { trustedTypes?: TrustedTypePolicyFactory }).trustedTypes;
  if (!factory) return url;
  policy ??= factory.createPolicy(TRUSTED_TYPES_POLICY, {
    createScriptURL: (candidate) => {
      if (!ALLOWED.has(candidate)) throw new TypeError(`Not the app's service worker script: ${candidate}`);
      return candidate;
    },
  });
  // Workbox accepts a TrustedScriptURL wherever it takes the string (it calls toString() to compare).
  return policy.createScriptURL(url) as string;
}
