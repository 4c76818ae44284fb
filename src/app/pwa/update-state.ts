/**
 * Whether the page should be reloaded, why, and how: what the update prompt reads. The service worker bridge (loaded
 * after the first paint) offers a new version here; a part of the app that did not load asks for a reload too (an
 * old tab whose files a newer version replaced).
 */
export interface UpdateState {
  readonly updateReady: boolean;
  readonly message: string;
}

let state: UpdateState = { updateReady: false, message: '' };
let apply: (() => void) | null = null;
const listeners = new Set<() => void>();

export const getUpdateState = (): UpdateState => state;

export function subscribeToUpdates(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A new version waits; `activate` switches to it (the page reloads once it is in control). */
export function offerUpdate(activate: () => void, message = 'A new version is ready.'): void {
  apply = activate;
  state = { updateReady: true, message };
  for (const listener of listeners) listener();
}

/** A part of the app (a screen, a file download, the engine) could not be loaded: said, with a reload offered. */
export function failedToLoad(error: unknown): void {
  console.error('Part of the app could not be loaded', error);
  if (!state.updateReady) offerUpdate(() => window.location.reload(), 'Part of Stacks Watch did not load.');
}

/** "Later": the bar goes; the waiting version still takes over at the next start, or when offered again. */
export function dismissUpdate(): void {
  state = { updateReady: false, message: '' };
  for (const listener of listeners) listener();
}

/** Switches to the waiting version, when one was offered. */
export function applyUpdate(): void {
  apply?.();
}
