import type { Network } from '../../domain/network.ts';
import type { Activity, StxBalance } from '../../domain/snapshot.ts';
import type { ActivitySink, ReorgScope } from '../../monitor/network-monitor.ts';
import type { DeviceAlerts } from './device-alerts.ts';

/**
 * One network monitor follows the union of every device's principals; what it learns of a principal goes to the
 * alerts of each device that watches it, each judged with that device's rules and ledger.
 */
export class FanOut implements ActivitySink {
  private byPrincipal = new Map<string, DeviceAlerts[]>();

  constructor(private readonly network: Network) {}

  /** Rebuilds the routing from the devices' watch lists; returns the principals followed on this network. */
  route(devices: Iterable<DeviceAlerts>): string[] {
    const next = new Map<string, DeviceAlerts[]>();
    for (const device of devices)
      for (const watch of device.listWatches()) {
        if (watch.network !== this.network) continue;
        const list = next.get(watch.principal);
        if (list) list.push(device);
        else next.set(watch.principal, [device]);
      }
    this.byPrincipal = next;
    return [...next.keys()];
  }

  private to(principal: string): readonly DeviceAlerts[] {
    return this.byPrincipal.get(principal) ?? [];
  }

  activities(network: Network, principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    for (const device of this.to(principal)) device.alerter.activities(network, principal, activities, source);
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
    return this.to(principal).length > 0;
  }

  /** Resolves once every device's alerts have judged and stored what they were handed. */
  async idle(): Promise<void> {
    const all = new Set([...this.byPrincipal.values()].flat());
    await Promise.all([...all].map((device) => device.alerter.idle()));
  }
}
