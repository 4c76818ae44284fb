import { createStore } from '../../domain/create-store.ts';
import { useStore } from '../use-store.ts';

/**
 * Whether the page should be reloaded, why, and how: what the update prompt reads. The service worker bridge (loaded
 * after the first paint) offers a new version here; a part of the app that did not load asks for a reload too (an
 * old tab whose files a newer version replaced).
 */
export interface UpdateState {
  readonly updateReady: boolean;
  readonly message: string;
}

const NONE: UpdateState = { updateReady: false, message: '' };
const state = createStore<UpdateState>(NONE);
let apply: (() => void) | null = null;

export const useUpdateState = (): UpdateState => useStore(state);

/** A new version waits; `activate` switches to it (the page reloads once it is in control). */
export function offerUpdate(activate: () => void, message = 'A new version is ready.'): void {
  apply = activate;
  state.set({ updateReady: true, message });
}

/** A part of the app (a screen, a file download, the engine) could not be loaded: said, with a reload offered. */
export function failedToLoad(error: unknown): void {
  console.error('Part of the app could not be loaded', error);
  if (!state.get().updateReady) offerUpdate(() => window.location.reload(), 'Part of Stacks Watch did not load.');
}

/** "Later": the bar goes; the waiting version still takes over at the next start, or when offered again. */
export function dismissUpdate(): void {
  state.set(NONE);
}

/** Switches to the waiting version, when one was offered. */
export function applyUpdate(): void {
  apply?.();
}
