import { readStoredPrincipal } from '../address/address-shape.ts';
import { addressPagePath } from '../text/alert-text.ts';
import type { Network } from '../network.ts';

const TX_ID = /^0x[0-9a-fA-F]{64}$/;

/**
 * Where an alert opens: the address page at its transaction, built on the device from the alert's own network,
 * principal and transaction id (the service worker for a click, the relay for a Declarative Web Push `navigate`, by
 * this one rule). Nothing a remote party wrote as a path is ever followed: a principal that is not a stored-shape
 * address of that network opens the inbox, and a transaction id that is not one is left out.
 */
export function alertPath(alert: {
  readonly network: Network;
  readonly principal: string;
  readonly txId: string | null;
}): string {
  const principal = readStoredPrincipal(alert.principal);
  if (!principal.ok || principal.value.network !== alert.network) return '/inbox';
  return addressPagePath(principal.value.principal, alert.txId && TX_ID.test(alert.txId) ? alert.txId : undefined);
}

/**
 * A path that stays on `origin` once the browser resolves it, else null: `/\evil.example/login` resolves to another
 * host (browsers read `\` as `/` in http URLs), and so do `//host`, `/\/host` and `https://host`. Kept for paths the
 * app wrote itself into a notification, as a second line behind alertPath.
 */
export function sameOriginPath(path: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(path, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin || !path.startsWith('/') || /[\\\s]/.test(path)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
