import { relativeTime } from '../text/time-text.ts';

/**
 * Why a network's node cannot be reached now: the device is offline, the node failed its last try, or its live feed
 * was lost and is being reconnected (nothing tried over REST has failed yet).
 */
export type Away = 'offline' | 'unreachable' | 'reconnecting';

/** What the screens know about how current a network's figures are. */
export interface FreshnessInput {
  /** The realtime feed is connected: every change reaches the app as it happens. */
  readonly live: boolean;
  /** Epoch ms of the oldest successful read from the node among the figures shown, or null if never read. */
  readonly checkedAt: number | null;
  /** When the live feed, which kept the figures current, was lost (epoch ms); null if it was not. */
  readonly liveUntil?: number | null;
  /** Why the node cannot be reached now, or null while nothing says it cannot. */
  readonly away?: Away | null;
}

export type Freshness =
  | { readonly kind: 'live' }
  | { readonly kind: 'checked'; readonly at: number }
  | { readonly kind: 'stale'; readonly at: number; readonly away: Away }
  | { readonly kind: 'never' };

/** How `stale` says why, after when the figures were last updated. */
export const AWAY_WORDS: Readonly<Record<Away, string>> = {
  offline: 'offline',
  unreachable: 'node unreachable',
  reconnecting: 'reconnecting',
};

/**
 * The one rule for "how fresh is this", shared by the list rows and the totals so they never disagree: a live
 * feed counts as fresh whatever the last check; otherwise the figures are worth the oldest check, or the moment the
 * feed was lost where that is later (it kept them current until then). While the node cannot be reached they are
 * said to be as old as that last successful read, and why: never "checked just now" for a try that failed.
 */
export function freshness({ live, checkedAt, liveUntil = null, away = null }: FreshnessInput): Freshness {
  if (live && checkedAt !== null) return { kind: 'live' };
  if (checkedAt === null) return { kind: 'never' };
  const at = Math.max(checkedAt, liveUntil ?? checkedAt);
  return away ? { kind: 'stale', at, away } : { kind: 'checked', at };
}

export function describeFreshness(value: Freshness, nowMs: number): string {
  if (value.kind === 'live') return 'live';
  if (value.kind === 'never') return 'not checked yet';
  if (value.kind === 'stale') return `last updated ${relativeTime(value.at, nowMs)} — ${AWAY_WORDS[value.away]}`;
  return `checked ${relativeTime(value.at, nowMs)}`;
}

/**
 * What a figure never read says in its place: "not known yet", or why it is not known when the node cannot be reached
 * ("node unreachable", "offline"). A feed reconnecting may yet bring it: still "not known yet".
 */
export const notKnownWords = (away: Away | null): string =>
  away === 'offline' || away === 'unreachable' ? AWAY_WORDS[away] : 'not known yet';
