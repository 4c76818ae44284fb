import type { Workbox } from 'workbox-window';

/**
 * The one module that talks to the service worker. It registers it, reports when a new version is waiting, and
 * switches to it only when the user asks: never a silent reload.
 */
export interface UpdateState {
  readonly updateReady: boolean;
}

let state: UpdateState = { updateReady: false };
const listeners = new Set<() => void>();
let workbox: Workbox | null = null;

const setState = (next: UpdateState): void => {
  state = next;
  for (const listener of listeners) listener();
};

export const getUpdateState = (): UpdateState => state;

export function subscribeToUpdates(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export async function registerServiceWorker(scriptUrl = '/sw.js'): Promise<void> {
  if (!('serviceWorker' in navigator) || workbox) return;
  const { Workbox } = await import('workbox-window');
  workbox = new Workbox(scriptUrl, { scope: '/', type: 'classic' });
  workbox.addEventListener('waiting', () => setState({ updateReady: true }));
  await workbox.register();
}

/** Activates the waiting version, then reloads once it controls the page. */
export function applyUpdate(): void {
  if (!workbox) return;
  workbox.addEventListener('controlling', () => window.location.reload());
  workbox.messageSkipWaiting();
}
