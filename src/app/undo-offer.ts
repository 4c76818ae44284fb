import { createStore } from '../domain/create-store.ts';
import type { Removal } from '../domain/watch/watchlist.ts';
import { useStore } from './use-store.ts';

/**
 * The Undo after a removal, kept outside the list screen: it sits in the app's bottom stack, so it survives moving to
 * another screen and nothing floats over it. A newer removal replaces it (the older one is then final).
 */
export interface UndoOffer {
  readonly removal: Removal;
  readonly undo: () => void;
}

/** An offer as shown: `key` tells one removal from the next, even of the same address. */
export type ShownUndo = UndoOffer & { readonly key: number };

const shown = createStore<ShownUndo | null>(null);
let offered = 0;

export const undoOffer = {
  get: shown.get,
  subscribe: shown.subscribe,
  offer: (offer: UndoOffer): void => shown.set({ ...offer, key: ++offered }),
  /** Takes it back (Undo pressed); false when it had already expired or been replaced. */
  take(removal: Removal): boolean {
    const current = shown.get();
    if (current?.removal !== removal) return false;
    current.undo();
    shown.set(null);
    return true;
  },
  expire(removal: Removal): void {
    if (shown.get()?.removal === removal) shown.set(null);
  },
};

export const useUndoOffer = (): ShownUndo | null => useStore(shown);
