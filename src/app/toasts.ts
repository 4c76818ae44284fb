import { useSyncExternalStore } from 'react';
import type { NotificationContent } from '../domain/alert-text.ts';

/** Alerts shown inside the app while it is focused, instead of system notifications; each fades after a while. */
export interface Toast {
  readonly key: number;
  readonly content: NotificationContent;
}

const SHOWN_MS = 8000;
const MAX_SHOWN = 3;
let shown: readonly Toast[] = [];
let next = 0;
const listeners = new Set<() => void>();

const set = (value: readonly Toast[]): void => {
  shown = value;
  listeners.forEach((listener) => listener());
};

export const toasts = {
  get: (): readonly Toast[] => shown,
  show(content: NotificationContent): void {
    const key = ++next;
    // The same transaction or summary replaces its earlier toast, as its notification would.
    set([{ key, content }, ...shown.filter((toast) => toast.content.tag !== content.tag)].slice(0, MAX_SHOWN));
    setTimeout(() => toasts.dismiss(key), SHOWN_MS);
  },
  dismiss(key: number): void {
    if (shown.some((toast) => toast.key === key)) set(shown.filter((toast) => toast.key !== key));
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

export const useToasts = (): readonly Toast[] => useSyncExternalStore(toasts.subscribe, toasts.get);
