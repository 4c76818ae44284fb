import type { ToastBurst } from '../domain/alerts/toast-view.ts';
import { createStore } from '../domain/create-store.ts';
import { useEffect } from 'react';
import { useStore } from './use-store.ts';

/**
 * The toast on screen, apart from the code that folds alerts into it (app/toasts.ts): the first screen needs only
 * to know whether one is up, and folding brings the alert words, which load after the first paint (with
 * app/after-paint.ts).
 */
export interface Toast {
  /** Changes with every burst: a new toast, where a later alert of the same burst only changes its words. */
  readonly key: number;
  readonly burst: ToastBurst;
  /**
   * What the polite live region says: the newest alert and the count, at most every few seconds (app/toasts.ts), and
   * nothing while alerts come faster than that.
   */
  readonly said: string;
}

export const shownToast = createStore<Toast | null>(null);

export const useToast = (): Toast | null => useStore(shownToast);

/** Screens showing something a toast must not cover (a QR code a camera reads), counted while they show it. */
const asideFor = createStore(0);

/** Whether toasts are kept off the screen now: alerts still reach the inbox, and their sound and badge go on. */
export const useToastsAside = (): boolean => useStore(asideFor) > 0;

/** The same, outside React: an alert that arrives meanwhile is not toasted later, minutes old. */
export const toastsAside = (): boolean => asideFor.get() > 0;

/** While the calling screen is mounted, toasts stay off it (the QR code that moves the list to a phone). */
export function useKeepToastsAside(): void {
  useEffect(() => {
    // A toast up as the screen opens goes (its alert is in the inbox), rather than coming back over it later.
    shownToast.set(null);
    asideFor.set(asideFor.get() + 1);
    return () => asideFor.set(asideFor.get() - 1);
  }, []);
}
