import { useSyncExternalStore } from 'react';
import type { NotificationContent } from '../domain/alert-text.ts';
import { addToBurst, type ToastBurst } from '../domain/toast-burst.ts';

/**
 * The one in-app alert shown while the app is focused, instead of system notifications. Alerts arriving while it
 * is up fold into it; it fades a while after the last one, or when dismissed.
 */
export interface Toast {
  /** Changes with every alert folded in, so that screen readers hear the new count. */
  readonly key: number;
  readonly burst: ToastBurst;
}

const SHOWN_MS = 8000;
let burst: ToastBurst | null = null;
let shown: Toast | null = null;
let next = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

const set = (value: Toast | null): void => {
  shown = value;
  listeners.forEach((listener) => listener());
};

export const toasts = {
  get: (): Toast | null => shown,
  show(content: NotificationContent): void {
    burst = addToBurst(burst, content);
    set({ key: ++next, burst });
    if (timer) clearTimeout(timer);
    timer = setTimeout(toasts.dismiss, SHOWN_MS);
  },
  /** The pointer or the focus is on the toast: it stays until they leave (time to read it, WCAG 2.2.1). */
  hold(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  },
  release(): void {
    if (!shown) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(toasts.dismiss, SHOWN_MS);
  },
  dismiss(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    burst = null;
    if (shown) set(null);
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useToast = (): Toast | null => useSyncExternalStore(toasts.subscribe, toasts.get);
