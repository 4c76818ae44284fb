import { LOCAL_KEYS } from '../store/keys.ts';

/** Hidden at least this long, the person was away: what the catch-up finds happened while they were. */
const ABSENCE_MS = 60_000;
/** For this long after they come back (or open the app), a catch-up is told as "While you were away". */
const RETURN_WINDOW_MS = 120_000;

/** When the person was last seen in the app: kept across a reload or a closed tab, by any tab. */
export interface LastSeen {
  read(): number | null;
  write(at: number): void;
}

interface Surroundings {
  readonly doc: Pick<Document, 'visibilityState' | 'addEventListener'>;
  /** Where `pagehide` is heard: the page is reloaded, closed or navigated away from. */
  readonly win: Pick<Window, 'addEventListener'>;
  readonly now: () => number;
  readonly lastSeen: LastSeen;
  /** Runs `tick` every `ms` for the page's life. */
  readonly every: (tick: () => void, ms: number) => unknown;
}

/** localStorage: synchronous (the answer is needed as the first catch-up is told) and harmless to lose. */
const storedLastSeen: LastSeen = {
  read() {
    try {
      const value = Number(localStorage.getItem(LOCAL_KEYS.lastSeen));
      return Number.isFinite(value) && value > 0 ? value : null;
    } catch {
      return null;
    }
  },
  write(at) {
    try {
      localStorage.setItem(LOCAL_KEYS.lastSeen, String(at));
    } catch {
      // Storage refused (private mode): the next opening counts as a return, as a first one does.
    }
  },
};

/** While a page is in view, how often it says so: another tab opened meanwhile finds the person was just here. */
const SEEN_EVERY_MS = 20_000;

/**
 * Whether the person was away from the app just before now: unseen in every tab for a minute or more (this one hidden,
 * and no other in view), or it was opened or shown again after such an absence a short while ago. A reload, a tab
 * opened or taking over beside one just looked at, or a glance elsewhere shorter than a minute is no absence; nor is a
 * reconnect while they look. When the app was last seen is kept as long as a page of it is in view (every
 * SEEN_EVERY_MS) and as it is hidden or left; a time ahead of the clock (set back since) is taken as unknown.
 */
export function trackPresence(surroundings: Partial<Surroundings> = {}): () => boolean {
  const { doc = document, win = window, now = Date.now, lastSeen = storedLastSeen, every = setInterval } = surroundings;
  const seenLately = () => {
    const seen = lastSeen.read();
    const gap = seen === null ? Infinity : now() - seen;
    return gap >= 0 && gap < ABSENCE_MS;
  };
  const seenNow = () => {
    if (doc.visibilityState !== 'hidden') lastSeen.write(now());
  };
  let returnedAt = seenLately() ? -Infinity : now();
  let hiddenAt = doc.visibilityState === 'hidden' ? now() : null;
  seenNow();
  every(seenNow, SEEN_EVERY_MS);
  doc.addEventListener('visibilitychange', () => {
    if (doc.visibilityState === 'hidden') {
      hiddenAt ??= now();
      lastSeen.write(now());
      return;
    }
    if (hiddenAt !== null && now() - hiddenAt >= ABSENCE_MS && !seenLately()) returnedAt = now();
    hiddenAt = null;
    seenNow();
  });
  win.addEventListener('pagehide', seenNow);
  return () => (doc.visibilityState === 'hidden' && !seenLately()) || now() - returnedAt <= RETURN_WINDOW_MS;
}
