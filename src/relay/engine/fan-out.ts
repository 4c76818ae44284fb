import type { Network } from '../../domain/network.ts';
import type { Activity, StxBalance } from '../../domain/state/snapshot.ts';
import type { ActivitySink, ReorgScope } from '../../monitor/ports.ts';
import type { StakingChange } from '../../monitor/staking-keeper.ts';
import type { DeviceAlerts } from './device-alerts.ts';

/**
 * One network monitor follows the union of every device's principals; what it learns of a principal goes to the
 * alerts of each device that watches it, each judged with that device's rules and ledger. Routes change one
 * device's watches at a time, so a registration costs its own watches, not everyone's. Where several instances share
 * the devices, each follows every device's principals (a dead instance's devices are then taken over with their
 * snapshots complete) and routes only to the devices it owns. Routes name devices by id: `open` gives a device's
 * alerts, read from storage again when they were put away while it was idle (active-devices.ts).
 */
export class FanOut implements ActivitySink {
  private readonly byPrincipal = new Map<string, Set<string>>();
  /** Every device's principals, owned here or not, with how many devices watch each. */
  private readonly followers = new Map<string, number>();

  constructor(private readonly open: (deviceId: string) => DeviceAlerts) {}

  /** Follows the principals for one more device; returns those nobody watched before. */
  follow(principals: Iterable<string>): string[] {
    const fresh: string[] = [];
    for (const principal of principals) {
      const count = this.followers.get(principal) ?? 0;
      this.followers.set(principal, count + 1);
      if (count === 0) fresh.push(principal);
    }
    return fresh;
  }

  /** Follows the principals for one device less; returns those nobody watches any more. */
  unfollow(principals: Iterable<string>): string[] {
    const gone: string[] = [];
    for (const principal of principals) {
      const count = this.followers.get(principal) ?? 0;
      if (count > 1) this.followers.set(principal, count - 1);
      else if (this.followers.delete(principal)) gone.push(principal);
    }
    return gone;
  }

  /** Routes the principals to the device (one this instance judges for). */
  add(deviceId: string, principals: Iterable<string>): void {
    for (const principal of principals) {
      const devices = this.byPrincipal.get(principal);
      if (devices) devices.add(deviceId);
      else this.byPrincipal.set(principal, new Set([deviceId]));
    }
  }

  /** Stops routing the principals to the device. */
  remove(deviceId: string, principals: Iterable<string>): void {
    for (const principal of principals) {
      const devices = this.byPrincipal.get(principal);
      if (devices?.delete(deviceId) && devices.size === 0) this.byPrincipal.delete(principal);
    }
  }

  /** The principals followed on this network. */
  principals(): string[] {
    return [...this.followers.keys()];
  }

  watched(principal: string): boolean {
    return this.followers.has(principal);
  }

  private *to(principal: string): Iterable<DeviceAlerts> {
    for (const deviceId of this.byPrincipal.get(principal) ?? []) yield this.open(deviceId);
  }

  activities(network: Network, principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    for (const device of this.to(principal)) device.alerter.activities(network, principal, activities, source);
  }

  staking(network: Network, principal: string, change: StakingChange): void {
    for (const device of this.to(principal)) device.alerter.staking(network, principal, change);
  }

  baseline(network: Network, principal: string, activities: readonly Activity[], height: number | null): void {
    for (const device of this.to(principal)) device.alerter.baseline(network, principal, activities, height);
  }

  reverted(network: Network, principal: string, activities: readonly Activity[], scope?: ReorgScope): void {
    for (const device of this.to(principal)) device.alerter.reverted(network, principal, activities, scope);
  }

  balance(network: Network, principal: string, before: StxBalance | null, after: StxBalance): void {
    for (const device of this.to(principal)) device.alerter.balance(network, principal, before, after);
  }

  forked(network: Network, principal: string, height: number): void {
    for (const device of this.to(principal)) device.alerter.forked(network, principal, height);
  }

  wantsDetail(_network: Network, principal: string): boolean {
    return this.followers.has(principal);
  }
}
