import type { NotificationContent } from '../domain/text/notification-content.ts';
import { addToBurst, type ToastBurst, spokenView, viewBurst } from '../domain/alerts/toast-view.ts';
import { shownToast as shown, toastsAside } from './toast-shown.ts';

export { useToast } from './toast-shown.ts';

/** How long the newest alert stays up after it came, or after the pointer or the focus left the toast. */
const SHOWN_MS = 8000;
/** The longest a burst gathers "+N more": the first alert after it starts a toast of its own. */
export const BURST_MAX_MS = 20_000;
/** A screen reader hears the toast at most this often, and then its newest alert: never each of a flood. */
export const SAY_EVERY_MS = 2000;

type Timer = ReturnType<typeof setTimeout>;
let burst: ToastBurst | null = null;
let startedAt = 0;
let saidAt = 0;
let held = false;
/** Whether the toast's view is drawn: it loads with the first alert, and an alert's time to be read starts then. */
let drawn = false;
let key = 0;
let fade: Timer | null = null;
let sayLater: Timer | null = null;

/**
 * The one in-app alert shown while the app is focused, instead of system notifications. It is never silent while
 * alerts arrive: each one is shown at once, in its words, with the others of its burst as "+N more" (the inbox has
 * them all), and each restarts the fade, so that the newest always has its time to be read.
 *
 * The calm rule: the toast changes only when something new comes, and never for longer than it takes to read it. It
 * fades `SHOWN_MS` after the newest alert, and the next alert starts a new burst, its count from zero. Steady activity
 * keeps a toast up only as long as it brings something new, and never the same burst: after `BURST_MAX_MS` the next
 * alert starts a new toast rather than counting the whole session. A screen reader hears the first alert of a burst at
 * once and then at most the newest every `SAY_EVERY_MS`, not a flood. (It used to fold a burst into "N new alerts" and
 * then keep quiet for a minute: most toasts of a busy minute said nothing, and alerts in the quiet were not shown.)
 */
export const toasts = {
  get: shown.get,
  subscribe: shown.subscribe,
  show(content: NotificationContent): void {
    // Kept off a screen a toast must not cover (the QR code): the inbox tells it; shown later it would be stale.
    if (toastsAside()) return;
    const now = Date.now();
    // While held, the user is reading or pointing at it: it grows rather than turning into another toast.
    if (burst && !held && now - startedAt >= BURST_MAX_MS) endBurst();
    const fresh = !burst;
    if (fresh) {
      startedAt = now;
      key++;
    }
    burst = addToBurst(burst, content);
    const sayIn = saidAt + SAY_EVERY_MS - now;
    if (fresh || sayIn <= 0) say();
    else {
      // Nothing said until the flood settles, rather than words the screen has moved past.
      shown.set({ key, burst, said: '' });
      sayLater ??= setTimeout(say, sayIn);
    }
    if (!held) fadeLater();
  },
  /** The toast's view is on screen, or gone: on a slow device an alert is not faded before it could be drawn. */
  drawnOnScreen(on: boolean): void {
    drawn = on;
    if (on && shown.get() && !held) fadeLater();
  },
  /** The pointer or the focus is on the toast: it stays until they leave (time to read it, WCAG 2.2.1). */
  hold(): void {
    held = true;
    stop(fade);
    fade = null;
  },
  release(): void {
    held = false;
    if (shown.get()) fadeLater();
  },
  dismiss(): void {
    endBurst();
    held = false;
    shown.set(null);
  },
};

function fadeLater(): void {
  stop(fade);
  fade = drawn ? setTimeout(toasts.dismiss, SHOWN_MS) : null;
}

/** Tells the screen reader the toast as it is now. */
function say(): void {
  stop(sayLater);
  sayLater = null;
  if (!burst) return;
  saidAt = Date.now();
  shown.set({ key, burst, said: spokenView(viewBurst(burst)) });
}

function endBurst(): void {
  for (const timer of [fade, sayLater]) stop(timer);
  fade = sayLater = null;
  burst = null;
}

const stop = (timer: Timer | null): void => {
  if (timer) clearTimeout(timer);
};
