import type { NotificationContent } from '../domain/text/notification-content.ts';
import { addToBurst, type ToastBurst } from '../domain/alerts/toast-burst.ts';
import { shownToast as shown } from './toast-shown.ts';

export { useToast } from './toast-shown.ts';

const SHOWN_MS = 8000;
export const BURST_MAX_MS = 20_000;
export const QUIET_MS = 60_000;
let burst: ToastBurst | null = null;
let startedAt = 0;
let quietUntil = 0;
let next = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

/**
 * The one in-app alert shown while the app is focused, instead of system notifications. Alerts arriving while it
 * is up fold into it; it fades a while after the last one, or when dismissed. Steady activity does not keep it up
 * for ever: a burst fades at most `BURST_MAX_MS` after it began, and then the toast keeps quiet for `QUIET_MS`
 * (the inbox and its count still have every alert).
 */
export const toasts = {
  get: shown.get,
  subscribe: shown.subscribe,
  show(content: NotificationContent): void {
    const now = Date.now();
    if (now < quietUntil) return;
    if (!burst) startedAt = now;
    burst = addToBurst(burst, content);
    shown.set({ key: ++next, burst });
    if (timer) clearTimeout(timer);
    const left = startedAt + BURST_MAX_MS - now;
    timer = left < SHOWN_MS ? setTimeout(expire, Math.max(0, left)) : setTimeout(toasts.dismiss, SHOWN_MS);
  },
  /** The pointer or the focus is on the toast: it stays until they leave (time to read it, WCAG 2.2.1). */
  hold(): void {
    if (timer) clearTimeout(timer);
    timer = null;
  },
  release(): void {
    if (!shown.get()) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(toasts.dismiss, SHOWN_MS);
  },
  dismiss(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    burst = null;
    shown.set(null);
  },
  /** Forgets the quiet period (a test starts afresh). */
  reset(): void {
    quietUntil = 0;
    toasts.dismiss();
  },
};

/** A burst that lasted its longest: it fades, and the next alerts wait in the inbox for a while. */
function expire(): void {
  toasts.dismiss();
  quietUntil = Date.now() + QUIET_MS;
}
