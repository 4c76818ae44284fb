import { relativeTime } from '../text/time-text.ts';

/** What the screens know about how current a network's figures are. */
export interface FreshnessInput {
  /** The realtime feed is connected: every change reaches the app as it happens. */
  readonly live: boolean;
  /** Epoch ms of the oldest check with the node among the figures shown, or null if never checked. */
  readonly checkedAt: number | null;
}

export type Freshness =
  { readonly kind: 'live' } | { readonly kind: 'checked'; readonly at: number } | { readonly kind: 'never' };

/**
 * The one rule for "how fresh is this", shared by the list rows and the totals so they never disagree: a live
 * feed counts as fresh whatever the last check; otherwise the oldest check is what the figures are worth.
 */
export function freshness({ live, checkedAt }: FreshnessInput): Freshness {
  if (live && checkedAt !== null) return { kind: 'live' };
  return checkedAt === null ? { kind: 'never' } : { kind: 'checked', at: checkedAt };
}

export function describeFreshness(value: Freshness, nowMs: number): string {
  if (value.kind === 'live') return 'live';
  if (value.kind === 'never') return 'not checked yet';
  return `checked ${relativeTime(value.at, nowMs)}`;
}
