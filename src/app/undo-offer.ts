import { createStore } from '../domain/create-store.ts';
import { UNDO_WINDOW_MS } from '../domain/watch/removal-journal.ts';
import type { Removal } from '../domain/watch/watchlist.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';
import { useStore } from './use-store.ts';

/**
 * The Undo after a removal, kept outside the list screen: it sits in the app's bottom stack, so it survives moving to
 * another screen and nothing floats over it. A newer removal replaces it (the older one is then final).
 */
export interface UndoOffer {
  readonly removal: Removal;
  readonly undo: () => void;
  /** The time it has to run: the whole window, or what a reload left of it. */
  readonly leftMs?: number;
  /** Where its countdown stands, for the page after a reload: running until `until`, or over (null). */
  readonly keep?: (until: number | null) => void;
}

/** An offer as shown: `key` tells one removal from the next, even of the same address. */
export type ShownUndo = UndoOffer & { readonly key: number };

const shown = createStore<ShownUndo | null>(null);
let offered = 0;

/** Takes `current` off the screen; unless it was undone, its removal is final from now on. */
const end = (current: ShownUndo, final: boolean): void => {
  shown.set(null);
  if (final) current.keep?.(null);
};

export const undoOffer = {
  get: shown.get,
  subscribe: shown.subscribe,
  offer(offer: UndoOffer): void {
    const replaced = shown.get();
    if (replaced && replaced.removal.entry.principal !== offer.removal.entry.principal) replaced.keep?.(null);
    shown.set({ ...offer, key: ++offered });
  },
  /** Takes it back (Undo pressed); false when it had already expired or been replaced. */
  take(removal: Removal): boolean {
    const current = shown.get();
    if (current?.removal !== removal) return false;
    current.undo();
    end(current, false);
    return true;
  },
  expire(removal: Removal): void {
    const current = shown.get();
    if (current?.removal === removal) end(current, true);
  },
  /** The offer's countdown (re)started: it runs until `until`. */
  runsUntil(removal: Removal, until: number): void {
    const current = shown.get();
    if (current?.removal === removal) current.keep?.(until);
  },
};

/** Offers the Undo of a removal the controller made (`leftMs`: what a reload left of its time). */
export function offerUndo(controller: WatchlistController, removal: Removal, leftMs = UNDO_WINDOW_MS): void {
  undoOffer.offer({
    removal,
    leftMs,
    undo: () => controller.undo(removal),
    keep: (until) => controller.keepUndo(removal, until),
  });
}

export const useUndoOffer = (): ShownUndo | null => useStore(shown);
