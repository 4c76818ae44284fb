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

/**
 * Whether the person was away from the app just before now: it is hidden, or it was opened or shown again after a
 * real absence (a minute or more unseen) a short while ago. A reload, or a tab opened beside one just looked at, is
 * not an absence (when the app was last seen is kept as it is hidden or left); nor is a reconnect while they look.
 */
export function trackPresence(surroundings: Partial<Surroundings> = {}): () => boolean {
  const { doc = document, win = window, now = Date.now, lastSeen = storedLastSeen } = surroundings;
  const seenBefore = lastSeen.read();
  let returnedAt = seenBefore !== null && now() - seenBefore < ABSENCE_MS ? -Infinity : now();
  let hiddenAt = doc.visibilityState === 'hidden' ? now() : null;
  doc.addEventListener('visibilitychange', () => {
    if (doc.visibilityState === 'hidden') {
      hiddenAt ??= now();
      lastSeen.write(now());
      return;
    }
    if (hiddenAt !== null && now() - hiddenAt >= ABSENCE_MS) returnedAt = now();
    hiddenAt = null;
  });
  win.addEventListener('pagehide', () => {
    if (doc.visibilityState !== 'hidden') lastSeen.write(now());
  });
  return () => doc.visibilityState === 'hidden' || now() - returnedAt <= RETURN_WINDOW_MS;
}
