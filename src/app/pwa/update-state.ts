/**
 * Whether a new version of the app is waiting, and how to switch to it: what the update prompt reads. The service
 * worker bridge (loaded after the first paint) offers the update here; the prompt needs nothing else.
 */
export interface UpdateState {
  readonly updateReady: boolean;
}

let state: UpdateState = { updateReady: false };
let apply: (() => void) | null = null;
const listeners = new Set<() => void>();

export const getUpdateState = (): UpdateState => state;

export function subscribeToUpdates(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A new version waits; `activate` switches to it (the page reloads once it is in control). */
export function offerUpdate(activate: () => void): void {
  apply = activate;
  state = { updateReady: true };
  for (const listener of listeners) listener();
}

/** Switches to the waiting version, when one was offered. */
export function applyUpdate(): void {
  apply?.();
}
