import type { ChainTip } from '../chain/decode.ts';
import type { FeedState } from '../chain/feed.ts';

/** How one network's monitor is doing: what the connection status and the header tell of its node. */
export interface MonitorStatus {
  readonly node: string;
  readonly feed: FeedState;
  /** Whether the feed was live at some moment since this monitor started: only then is a lost feed reconnecting. */
  readonly connectedOnce: boolean;
  readonly lastEventAt: number | null;
  /**
   * When the live feed was last lost (epoch ms): the figures were kept current until then (a sync may be older).
   * Null while it is live, and until it has been.
   */
  readonly liveUntil?: number | null;
  readonly tip: ChainTip | null;
  readonly syncing: boolean;
  readonly problem: string | null;
  /**
   * What the node last sent that the app set aside, never stored (a negative balance, an event it cannot read),
   * while it went on with what it had: said in the connection panel, not only logged. Cleared by the next good read.
   */
  readonly setAside?: string | null;
  /** When the problem began (epoch ms): the first failure of a run of them, null while there is none. */
  readonly problemSince?: number | null;
  /** When a failed sync is tried again (epoch ms), while one is waiting. */
  readonly retryAt?: number | null;
}

/** What a feed state changes: live once, or when the live feed was lost (the figures were current until then). */
export function feedChange(was: MonitorStatus, feed: FeedState, now: number): Partial<MonitorStatus> {
  if (feed === 'live') return { feed, connectedOnce: true, liveUntil: null };
  return was.feed === 'live' ? { feed, liveUntil: now } : { feed };
}
