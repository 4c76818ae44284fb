import type { Network } from '../../domain/network.ts';
import type { PushSubscription, StoredWatch } from '../storage/devices.ts';

/** One followed network as the engine sees it, for /health and /metrics. */
export interface NetworkHealth {
  readonly height: number | null;
  readonly connected: boolean;
  /** Principals the chain follower follows, and how many the devices watch that are not synced yet. */
  readonly principals: number;
  readonly unsynced: number;
  /** The node can be reached: its live feed is up (or still connecting after a good first read). */
  readonly reachable: boolean;
}

/**
 * What the engine offers its hosts (the HTTP API asks it of devices and health). Declared beside the engine, so that
 * the engine depends on nothing of the API layer; the API depends on this.
 */
export interface EngineControl {
  deviceChanged(deviceId: string, watches: readonly StoredWatch[], subscription: PushSubscription): Promise<void>;
  deviceDeleted(deviceId: string): Promise<void>;
  health(): Partial<Record<Network, NetworkHealth>>;
  /** The networks this relay follows a node for. */
  networks(): readonly Network[];
}
