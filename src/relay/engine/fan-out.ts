import type { Network } from '../../domain/network.ts';
import type { Activity, StxBalance } from '../../domain/state/snapshot.ts';
import type { ActivitySink, ReorgScope } from '../../monitor/ports.ts';
import type { StakingChange } from '../../monitor/staking-keeper.ts';
import type { DeviceAlerts } from './device-alerts.ts';

/**
 * One network monitor follows the union of every device's principals; what it learns of a principal goes to the
 * alerts of each device that watches it, each judged with that device's rules and ledger. Routes change one
 * device's watches at a time, so a registration costs its own watches, not everyone's.
 */
export class FanOut implements ActivitySink {
  private readonly byPrincipal = new Map<string, Set<DeviceAlerts>>();

  /** Routes the principals to the device; returns those nobody watched before. */
  add(device: DeviceAlerts, principals: Iterable<string>): string[] {
    const fresh: string[] = [];
    for (const principal of principals) {
      const devices = this.byPrincipal.get(principal);
      if (devices) devices.add(device);
      else {
        this.byPrincipal.set(principal, new Set([device]));
        fresh.push(principal);
      }
    }
    return fresh;
  }

  /** Stops routing the principals to the device; returns those nobody watches any more. */
  remove(device: DeviceAlerts, principals: Iterable<string>): string[] {
    const gone: string[] = [];
    for (const principal of principals) {
      const devices = this.byPrincipal.get(principal);
      if (!devices?.delete(device) || devices.size > 0) continue;
      this.byPrincipal.delete(principal);
      gone.push(principal);
    }
    return gone;
  }

  /** The principals followed on this network. */
  principals(): string[] {
    return [...this.byPrincipal.keys()];
  }

  watched(principal: string): boolean {
    return this.byPrincipal.has(principal);
  }

  private to(principal: string): Iterable<DeviceAlerts> {
    return this.byPrincipal.get(principal) ?? [];
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
    return this.byPrincipal.has(principal);
  }
}
