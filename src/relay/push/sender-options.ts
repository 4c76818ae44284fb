/** What a push sender is given: its database and keys, where it posts, its retry policy, and when it may send. */
import type { Log } from '../log.ts';
import type { QueuedSend } from '../storage/deliveries.ts';
import type { Database } from '../storage/sql.ts';
import type { PushPoster } from './poster.ts';
import type { FailingThreshold } from './push-answers.ts';
import type { RetryPolicy } from './retry-policy.ts';
import type { VapidKeys } from './vapid.ts';

export interface SenderOptions {
  readonly db: Database;
  readonly vapid: VapidKeys;
  /** The push service forgot this device (404/410): the engine stops judging for it. */
  readonly forgotten: (deviceId: string) => Promise<void>;
  /** Where pushes are encrypted and posted (a ThreadPoster's threads); else on the event loop, with `fetch`. */
  readonly poster?: PushPoster;
  readonly fetch?: typeof fetch;
  readonly now?: () => number;
  /** Backoff and how long a state is worth trying for (tests scale it down). */
  readonly retry?: Partial<RetryPolicy>;
  /** Push service origins allowed beyond the browsers' own, checked again at send time (the flag may be gone). */
  readonly pushAllow?: readonly string[];
  readonly log?: Log;
  /** When failed pushes in a row make /health say the pushes are failing (FAILING_PUSHES; tests scale it down). */
  readonly failing?: FailingThreshold;
  /** Pushes in flight at once. */
  readonly concurrency?: number;
  /** The app's origin: pushes become Declarative Web Push messages that open it (see payload.ts). */
  readonly appOrigin?: string | null;
  /**
   * Whether a starting sender takes up every queued state (alone on its database); on a shared one the partition
   * leases hand it what it claims.
   */
  readonly takeUpQueued?: boolean;
  /** Each push the service accepted, with when its alert was learned (for the benchmark). */
  readonly onSent?: (send: QueuedSend, at: number) => void;
  /**
   * Until when (this relay's clock, epoch ms) it may post pushes. On a shared database: while its instance's heartbeat
   * is fresh, so that no other instance can have taken what it holds (partition-leases.ts); `resume` once it may
   * again. Checked when a push is handed to its poster and again just before the poster posts it (a push waiting on
   * a busy thread past the fence is not posted but handed back). The threads read `Date.now`: a sender given `now`
   * must keep it on that clock (tests that move a clock give their poster the same one).
   */
  readonly fence?: () => number;
}
