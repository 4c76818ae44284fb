import type { QueuedSend } from '../storage/deliveries.ts';

/** What the partition leases (partition-leases.ts) tell their instance, and how they are timed and seen. */

export interface LeaseHooks {
  /** Whether this instance may take partitions: its followers have the chain's tip (or follow nothing yet). */
  ready(): boolean;
  /** Partitions leased to this instance: it judges for their devices from now on. */
  gained(parts: readonly number[]): Promise<void>;
  /** Partitions no longer its own: it stops judging for their devices, and sending their states, before they go. */
  lost(parts: readonly number[]): Promise<void>;
  /** Queued states this instance now sends: left by a dead instance, or by its own previous run. */
  claimed(sends: readonly QueuedSend[]): void;
  /**
   * Its heartbeat lapsed long enough for others to take its claims: it keeps only the states still claimed in its
   * name (`claims` reads them, by `sendKey`), before it sends again.
   */
  lapsed(claims: () => Promise<ReadonlySet<string>>): Promise<void>;
  /** Its heartbeat was renewed: it may start pushes again (see `fresh`). */
  renewed(): void;
}

export interface LeaseTiming {
  /** This instance's clock (tests move it to make a stall). */
  readonly now?: () => number;
  /** Between rounds; tests that run rounds themselves (`renew`) make it long. */
  readonly renewMs?: number;
}

export interface LeaseStatus {
  readonly instance: string;
  readonly partitions: number;
  /** Instances taking a share (alive, their followers at the tip), this one included once ready. */
  readonly instances: number;
  /** When the leases were last renewed (epoch ms, this machine's clock); null before the first. */
  readonly renewedAt: number | null;
  /** Whether it may start pushes (its heartbeat is fresh). */
  readonly sending: boolean;
}
