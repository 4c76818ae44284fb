/** Hidden at least this long, the person was away: what the catch-up finds happened while they were. */
const ABSENCE_MS = 60_000;
/** For this long after they come back (or open the app), a catch-up is told as "While you were away". */
const RETURN_WINDOW_MS = 120_000;

type Visible = Pick<Document, 'visibilityState' | 'addEventListener'>;

/**
 * Whether the person was away from the app just before now: it is hidden, or it was opened (it was closed before)
 * or shown again after a real absence a short while ago. A reconnect while they look at it is not an absence.
 */
export function trackPresence(doc: Visible = document, now: () => number = Date.now): () => boolean {
  let returnedAt = now();
  let hiddenAt = doc.visibilityState === 'hidden' ? now() : null;
  doc.addEventListener('visibilitychange', () => {
    if (doc.visibilityState === 'hidden') {
      hiddenAt ??= now();
      return;
    }
    if (hiddenAt !== null && now() - hiddenAt >= ABSENCE_MS) returnedAt = now();
    hiddenAt = null;
  });
  return () => doc.visibilityState === 'hidden' || now() - returnedAt <= RETURN_WINDOW_MS;
}
