import type { AddressSnapshot } from '../../domain/state/snapshot.ts';
import type { StoredWatch } from '../storage/devices.ts';
import type { StoredDeviceState } from '../storage/device-alert-stores.ts';
import { DeviceAlerts, type SharedState } from './device-alerts.ts';
import { SharedWords } from './shared-words.ts';

/**
 * Devices whose alerts stay in memory (~13 kB each with ten watches): beyond it, those idle longest are put away and
 * read from storage again when something of theirs happens. Most devices of a large relay are quiet most of the time.
 */
export const ACTIVE_DEVICES = 20_000;

/**
 * The alerts of the devices an instance judges for that are in memory, least recently busy first: at most `limit`
 * but for those busy. One put away was idle (all it was handed judged and stored, its catch-up done), so reading it
 * again needs no catch-up.
 */
export class ActiveDevices {
  private readonly devices = new Map<string, DeviceAlerts>();
  private trimming = false;
  private reopenedCount = 0;
  /** The devices put away, until read back or removed: only those count as read back (a device first made lazily does not). */
  private readonly putAway = new Set<string>();

  private readonly shared: SharedState;

  constructor(
    shared: SharedState,
    private readonly limit: number,
    /** The device's watches (those routed to it). */
    private readonly watchesOf: (deviceId: string) => readonly StoredWatch[],
    /** The snapshots of a device's watched principals, for a catch-up. */
    private readonly snapshotsOf: (watches: Iterable<StoredWatch>) => AddressSnapshot[],
  ) {
    const { names, tokens } = shared;
    this.shared = { ...shared, words: new SharedWords(() => (names.learned ?? 0) + (tokens.learned ?? 0)) };
  }

  get size(): number {
    return this.devices.size;
  }

  /** How many times a device put away was read from storage again for what its watches learned. */
  get reopened(): number {
    return this.reopenedCount;
  }

  has(deviceId: string): boolean {
    return this.devices.has(deviceId);
  }

  get(deviceId: string): DeviceAlerts | undefined {
    return this.devices.get(deviceId);
  }

  all(): DeviceAlerts[] {
    return [...this.devices.values()];
  }

  /**
   * The device's alerts for what its watches learned, made the most recently busy: in memory, or read from storage
   * again (its ledgers and alert states, on its alerter's first turn).
   */
  open(deviceId: string): DeviceAlerts {
    const device = this.devices.get(deviceId);
    if (device) {
      this.devices.delete(deviceId);
      this.devices.set(deviceId, device);
      device.uses += 1;
      return device;
    }
    if (this.putAway.delete(deviceId)) this.reopenedCount += 1;
    const fresh = this.make(deviceId);
    if (this.devices.size > this.limit) void this.trim();
    return fresh;
  }

  /** The device's alerts, made with what was read of it already if it is not in memory. */
  make(deviceId: string, stored?: StoredDeviceState): DeviceAlerts {
    const kept = this.devices.get(deviceId);
    if (kept) return kept;
    const device = new DeviceAlerts(deviceId, this.shared, stored);
    device.setWatches(this.watchesOf(deviceId));
    this.devices.set(deviceId, device);
    return device;
  }

  /** Judges what the snapshots hold that the devices' stored ledgers have not seen; kept in memory meanwhile. */
  async catchUp(devices: readonly DeviceAlerts[]): Promise<void> {
    // An alerter still reading its ledgers looks idle: pinned until its catch-up is judged.
    for (const device of devices) device.pinned = true;
    await Promise.all(
      devices.map((device) =>
        device.alerter.start(this.snapshotsOf(device.listWatches())).finally(() => (device.pinned = false)),
      ),
    );
  }

  /** Takes the device out of memory (no longer judged here); resolves once what it was handed is stored. */
  async remove(deviceId: string): Promise<void> {
    this.putAway.delete(deviceId);
    const device = this.devices.get(deviceId);
    if (!device) return;
    this.devices.delete(deviceId);
    await device.alerter.idle();
  }

  /**
   * Puts away the alerts of the devices idle longest, down to the limit: each once idle, unless it was handed more
   * meanwhile (it is then the most recently busy) or is catching up.
   */
  async trim(): Promise<void> {
    if (this.trimming) return;
    this.trimming = true;
    try {
      for (const [deviceId, device] of this.devices) {
        if (this.devices.size <= this.limit) break;
        if (device.pinned) continue;
        const uses = device.uses;
        await device.alerter.idle();
        if (device.uses === uses && !device.pinned && this.devices.get(deviceId) === device) {
          this.devices.delete(deviceId);
          this.putAway.add(deviceId);
        }
      }
    } finally {
      this.trimming = false;
    }
  }
}
