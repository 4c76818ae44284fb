import type { Network } from '../../domain/network.ts';
import type { EngineControl, NetworkHealth } from './control.ts';
import { allDevices, allWatches, type StoredWatch } from '../storage/devices.ts';
import { readDeviceStates } from '../storage/device-alert-stores.ts';
import { ACTIVE_DEVICES, ActiveDevices } from './active-devices.ts';
import type { SharedState } from './device-alerts.ts';
import { NetworkFollowers, type FollowerOptions } from './network-followers.ts';

export interface EngineOptions extends Omit<SharedState, 'snapshots' | 'tokens' | 'names' | 'report'>, FollowerOptions {
  /** Whether this instance judges for the device (its partition is leased here); every device when left out. */
  readonly owns?: (deviceId: string) => boolean;
  /** Devices whose alerts are kept in memory at most, the least recently busy put away first (ACTIVE_DEVICES). */
  readonly activeDevices?: number;
}

const watchKey = (watch: StoredWatch): string => `${watch.network}:${watch.principal}`;

const on = (network: Network, list: readonly StoredWatch[]): string[] =>
  list.filter((watch) => watch.network === network).map((watch) => watch.principal);

/**
 * Hosts the page's alerts for every device: per network one ChainWatch (each block read once, whatever the number of
 * principals) over the union of the devices' principals (NetworkFollowers), and per device an Alerter with its rules.
 */
export class RelayEngine implements EngineControl {
  /** The devices this instance judges for, with the watches routed to them. */
  private readonly owned = new Map<string, readonly StoredWatch[]>();
  /** The alerts of owned devices in memory, least recently busy first. */
  private readonly devices: ActiveDevices;
  private readonly activeDevices: number;
  /** Every device's watches, judged here or not: what the followers follow. */
  private readonly watchesOf = new Map<string, readonly StoredWatch[]>();
  private readonly followers: NetworkFollowers;

  constructor(private readonly options: EngineOptions) {
    this.activeDevices = Math.max(1, options.activeDevices ?? ACTIVE_DEVICES);
    this.devices = new ActiveDevices(
      options,
      this.activeDevices,
      (deviceId) => this.owned.get(deviceId) ?? [],
      (watches) => [...watches].flatMap((watch) => options.snapshots.get(watch.principal) ?? []),
    );
    this.followers = new NetworkFollowers(options, (deviceId) => this.devices.open(deviceId));
  }

  networks(): Network[] {
    return this.followers.networks();
  }

  /**
   * Loads every device, then looks at the stored snapshots for what was stored but never judged (the relay was
   * killed in between), then follows the nodes: each reconcile catches up from each principal's synced height.
   */
  async start(): Promise<void> {
    await this.options.snapshots.load();
    await Promise.all([this.options.tokens.load(), this.options.names.load(), this.options.anchors.load()]);
    const watches = new Map<string, StoredWatch[]>();
    for (const watch of await allWatches(this.options.db)) {
      const list = watches.get(watch.deviceId);
      if (list) list.push(watch);
      else watches.set(watch.deviceId, [watch]);
    }
    const ids = (await allDevices(this.options.db)).map((device) => device.id);
    for (const id of ids) this.setFollowed(id, watches.get(id) ?? []);
    await this.adopt(ids);
    this.followers.followAll();
    // Snapshots of principals no device watches any more are dropped (a later watch starts afresh).
    await this.options.snapshots.forget(
      this.options.snapshots
        .all()
        .map((snapshot) => snapshot.principal)
        .filter((principal) => !this.followers.watched(principal)),
    );
  }

  /**
   * Starts judging for the devices (those this instance owns, of these): each reads its stored ledgers and alert
   * states, then judges what the snapshots hold that it has not seen — a restart's catch-up, and a dead instance's
   * devices taken over.
   */
  async adopt(deviceIds: readonly string[]): Promise<void> {
    const owns = this.options.owns ?? (() => true);
    const ids = deviceIds.filter((id) => !this.owned.has(id) && this.watchesOf.has(id) && owns(id));
    // A share at a time of what memory keeps: each judges what it missed, then the idle ones may be put away.
    for (let start = 0; start < ids.length; start += this.activeDevices) {
      const chunk = ids.slice(start, start + this.activeDevices);
      const stored = await readDeviceStates(this.options.db, chunk);
      const adopted = chunk.flatMap((id) => {
        // Deleted while its states were read, or taken by another instance meanwhile.
        if (this.owned.has(id) || !this.watchesOf.has(id) || !owns(id)) return [];
        this.route(id, this.watchesOf.get(id) ?? []);
        return [this.devices.make(id, stored.get(id))];
      });
      await this.devices.catchUp(adopted);
      await this.devices.trim();
    }
  }

  /** Stops judging for the devices (their partition went to another instance); resolves once their writes are in. */
  async release(deviceIds: readonly string[]): Promise<void> {
    await Promise.all(deviceIds.map((id) => this.disown(id)));
  }

  /** The devices this instance judges for. */
  judged(): string[] {
    return [...this.owned.keys()];
  }

  /** How many devices' alerts are in memory now (at most `activeDevices`, but for those busy). */
  activeCount(): number {
    return this.devices.size;
  }

  /** How many times a device put away was read from storage again. */
  reopened(): number {
    return this.devices.reopened;
  }

  /** Every device with watches, judged here or not. */
  known(): string[] {
    return [...this.watchesOf.keys()];
  }

  /**
   * Each network followed has taken the newest block its node announced (or nobody watches it yet): a device taken
   * over from another instance is judged from snapshots as new as that instance's.
   */
  atTip(): boolean {
    return this.followers.atTip();
  }

  /** Reads each node's newest block and takes it (before devices are taken over: their last owner may have). */
  catchUp(): Promise<void> {
    return this.followers.catchUp();
  }

  async deviceChanged(deviceId: string, watches: readonly StoredWatch[]): Promise<void> {
    this.setFollowed(deviceId, watches);
    // Followed before the registration is answered (or the news applied): left to the next batch, a transaction
    // entering the mempool right after the answer was heard for nobody and its pending state never told.
    this.followers.followNow();
    // Another instance judges for it: followed here (for a takeover), judged there.
    if (!(this.options.owns?.(deviceId) ?? true)) return;
    const added = this.route(deviceId, watches);
    // A watch new to this device starts from the chain tip: what its principal's snapshot holds now is history. A
    // device put away with nothing to baseline (a resync re-reading every device) is not read again for it.
    const baselines = added.flatMap((watch) => {
      const snapshot = this.options.snapshots.get(watch.principal);
      return snapshot ? [{ watch, snapshot }] : [];
    });
    if (baselines.length === 0 && !this.devices.has(deviceId)) return;
    const device = this.devices.has(deviceId) ? this.devices.open(deviceId) : this.devices.make(deviceId);
    for (const { watch, snapshot } of baselines) {
      const tip = this.followers.tipHeight(watch.network);
      device.alerter.baseline(watch.network, watch.principal, [...snapshot.recent, ...snapshot.pending], tip);
    }
    await device.alerter.idle();
    void this.devices.trim();
  }

  async deviceDeleted(deviceId: string): Promise<void> {
    this.setFollowed(deviceId, []);
    await this.disown(deviceId);
  }

  health(): Record<string, NetworkHealth> {
    return this.followers.health();
  }

  /** Resolves once every device's alerts have judged and stored what they were handed so far. */
  async idle(): Promise<void> {
    await this.followers.settled();
    await Promise.all(this.devices.all().map((device) => device.alerter.idle()));
    await this.options.snapshots.saved();
  }

  stop(): void {
    this.followers.stop();
  }

  /** Stops judging for the device; resolves once what its alerts were handed is stored. */
  private async disown(deviceId: string): Promise<void> {
    if (!this.owned.has(deviceId)) return;
    this.route(deviceId, []);
    this.owned.delete(deviceId);
    await this.devices.remove(deviceId);
  }

  /**
   * Replaces the device's watches and routes only what changed to it (its alerts get the new list, if in memory).
   * Returns the watches new to it.
   */
  private route(deviceId: string, watches: readonly StoredWatch[]): StoredWatch[] {
    const before = new Set((this.owned.get(deviceId) ?? []).map(watchKey));
    const now = new Set(watches.map(watchKey));
    const added = watches.filter((watch) => !before.has(watchKey(watch)));
    const removed = (this.owned.get(deviceId) ?? []).filter((watch) => !now.has(watchKey(watch)));
    this.owned.set(deviceId, watches);
    this.devices.get(deviceId)?.setWatches(watches);
    for (const [network, fanOut] of this.followers.fanOuts()) {
      fanOut.add(deviceId, on(network, added));
      fanOut.remove(deviceId, on(network, removed));
    }
    return added;
  }

  /**
   * Follows the device's watches, whichever instance judges for it; the monitors are handed the new principal lists
   * soon after (and principals nobody watches any more lose their snapshot).
   */
  private setFollowed(deviceId: string, watches: readonly StoredWatch[]): void {
    const before = this.watchesOf.get(deviceId) ?? [];
    if (watches.length > 0) this.watchesOf.set(deviceId, watches);
    else this.watchesOf.delete(deviceId);
    const gone: string[] = [];
    for (const [network, fanOut] of this.followers.fanOuts()) {
      const fresh = fanOut.follow(on(network, watches));
      const dropped = fanOut.unfollow(on(network, before));
      gone.push(...dropped.filter((principal) => !fanOut.watched(principal)));
      if (fresh.length > 0 || dropped.length > 0) this.followers.followSoon(network, fresh, dropped);
    }
    if (gone.length > 0) void this.options.snapshots.forget(gone);
  }
}
