import { useSyncExternalStore } from 'react';

/* Path-based routing over the History API: the app's few fixed screens (`Route` below) do not call for a library. */

const NAVIGATE_EVENT = 'stacks-watch:navigate';

function subscribe(onChange: () => void): () => void {
  window.addEventListener('popstate', onChange);
  window.addEventListener(NAVIGATE_EVENT, onChange);
  return () => {
    window.removeEventListener('popstate', onChange);
    window.removeEventListener(NAVIGATE_EVENT, onChange);
  };
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, () => window.location.pathname);
}

/** Goes to an in-app path (with a `#tx-…` fragment to show one transaction). */
export function navigate(path: string, options: { replace?: boolean } = {}): void {
  if (path === window.location.pathname + window.location.hash) return;
  if (options.replace) window.history.replaceState(null, '', path);
  else {
    leaving();
    window.history.pushState(null, '', path);
  }
  window.dispatchEvent(new Event(NAVIGATE_EVENT));
}

/** What the history keeps of a screen the user left: the link that had the focus (its `href`), to focus it again. */
interface LeftState {
  readonly focusedLink?: string;
}

/** Notes, in the history entry being left, the link that opened the next screen (a row, an inbox alert). */
function leaving(): void {
  const focused = document.activeElement;
  const focusedLink = focused instanceof HTMLAnchorElement ? focused.getAttribute('href') : null;
  const state: LeftState = { ...(window.history.state as LeftState | null), focusedLink: focusedLink ?? undefined };
  window.history.replaceState(state, '');
}

/** The link that had the focus when the user left this history entry (come back to it by Back), if one did. */
export function linkFocusedHere(): string | null {
  return (window.history.state as LeftState | null)?.focusedLink ?? null;
}

/** Where a link from another device's "Move to another device" opens, its list in the fragment. */
export const RECEIVE_PATH = '/receive';

export type Route =
  | { readonly screen: 'home' }
  | { readonly screen: 'settings' }
  | { readonly screen: 'inbox' }
  | { readonly screen: 'privacy' }
  | { readonly screen: 'receive' }
  | { readonly screen: 'address'; readonly principal: string }
  | { readonly screen: 'not-found' };

export function matchRoute(pathname: string): Route {
  if (pathname === '/' || pathname === '/index.html') return { screen: 'home' };
  if (pathname === '/settings') return { screen: 'settings' };
  if (pathname === '/inbox') return { screen: 'inbox' };
  if (pathname === '/privacy') return { screen: 'privacy' };
  if (pathname === RECEIVE_PATH) return { screen: 'receive' };
  const address = /^\/address\/([^/]+)\/?$/.exec(pathname);
  if (address?.[1]) return { screen: 'address', principal: safeDecode(address[1]) };
  return { screen: 'not-found' };
}

export const addressPath = (principal: string): string => `/address/${encodeURIComponent(principal)}`;

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
