/**
 * The one Trusted Types policy the app creates (app/pwa/trusted-script-url.ts) and the served Content Security Policy
 * allows (server/csp.ts): it lets only the app's own service worker script through.
 */
export const TRUSTED_TYPES_POLICY = 'stacks-watch-sw';
