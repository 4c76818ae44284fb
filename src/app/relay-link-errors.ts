/** Why the relay link stopped short, in the user's words: what no retry mends, and a push subscription refused. */
import type { WatchlistState } from '../store/watchlist-state.ts';
import { errorMessage } from '../domain/error-message.ts';

export const NOT_ALLOWED = 'Notifications are not allowed for this site; allow them first (see Notifications above).';

/** The user must act (allow notifications): retrying would not help. */
export class NotAllowed extends Error {}

/**
 * The watch list is not read (yet, or at all: storage failed, a newer version stored it): sending it would tell the
 * relay to drop every watch and what it had seen. Nothing is sent; the list's next change schedules another try.
 */
export class ListNotRead extends Error {}

export const listNotRead = (status: Exclude<WatchlistState['status'], 'ready'>): ListNotRead =>
  new ListNotRead(
    status === 'loading'
      ? ''
      : 'Your watch list could not be read on this device, so nothing was sent to the relay: it keeps the copy it has.',
  );

/**
 * A push subscription the browser refused, in words (it says "Registration failed - permission denied" or "push
 * service not available" even with notifications allowed): push is off in the browser, or it has no push service.
 */
export function pushRefused(error: unknown): string {
  const said = (error instanceof DOMException ? error.message : errorMessage(error)).replace(/[.\s]+$/, '');
  return (
    'This browser would not give Stacks Watch a push subscription, so alerts cannot reach it while the app is ' +
    'closed. Push may be turned off in the browser’s settings, or the browser has no push service (some ' +
    `privacy-focused browsers, or one started without it). While it is open, the app alerts as usual. (The browser said: “${said}”.)`
  );
}
