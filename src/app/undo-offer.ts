import { useSyncExternalStore } from 'react';
import type { Removal } from '../domain/watch/watchlist.ts';

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

let current: ShownUndo | null = null;
let offered = 0;
const listeners = new Set<() => void>();

const set = (value: ShownUndo | null): void => {
  current = value;
  listeners.forEach((listener) => listener());
};

export const undoOffer = {
  get: (): ShownUndo | null => current,
  offer: (offer: UndoOffer): void => set({ ...offer, key: ++offered }),
  /** Takes it back (Undo pressed); false when it had already expired or been replaced. */
  take(removal: Removal): boolean {
    if (current?.removal !== removal) return false;
    current.undo();
    set(null);
    return true;
  },
  expire(removal: Removal): void {
    if (current?.removal === removal) set(null);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useUndoOffer = (): ShownUndo | null => useSyncExternalStore(undoOffer.subscribe, undoOffer.get);
