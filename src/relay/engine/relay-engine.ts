import { SocketIoFeed } from '../../chain/feed.ts';
import type { NodeConfig } from '../../chain/networks.ts';
import { StacksRestClient } from '../../chain/rest-client.ts';
import { HostScheduler } from '../../chain/scheduler.ts';
import type { Network } from '../../domain/network.ts';
import { NetworkMonitor, type FeedLike } from '../../monitor/network-monitor.ts';
import type { FeedHandlers } from '../../chain/feed.ts';
import type { EngineControl } from '../api/server.ts';
import { allDevices, allWatches, type StoredWatch } from '../storage/devices.ts';
import type { SqlNames, SqlSnapshots, SqlTokens } from '../storage/engine-stores.ts';
import { DeviceAlerts, type SharedState } from './device-alerts.ts';
import { FanOut } from './fan-out.ts';

export interface EngineOptions extends Omit<SharedState, 'snapshots' | 'tokens' | 'names'> {
  readonly snapshots: SqlSnapshots;
  readonly tokens: SqlTokens;
  readonly names: SqlNames;
  /** The node followed for each network the relay serves. */
  readonly nodes: Partial<Record<Network, NodeConfig>>;
  readonly openFeed?: (url: string, handlers: FeedHandlers) => FeedLike;
}

interface Followed {
  readonly monitor: NetworkMonitor;
  readonly fanOut: FanOut;
  started: boolean;
}

/**
 * Hosts the page's engine for every device: per network one NetworkMonitor (REST reconcile on every connect, then
 * the Socket.IO feed) over the union of the devices' principals, and per device an Alerter with its rules.
 */
export class RelayEngine implements EngineControl {
  private readonly devices = new Map<string, DeviceAlerts>();
  private readonly followed = new Map<Network, Followed>();

  constructor(private readonly options: EngineOptions) {
    for (const [network, node] of Object.entries(options.nodes) as [Network, NodeConfig][]) {
      const fanOut = new FanOut(network);
      const openFeed = options.openFeed ?? ((url, handlers) => new SocketIoFeed(url, handlers));
      const monitor = new NetworkMonitor({
        node,
        rest: new StacksRestClient(node, new HostScheduler(node.limits)),
        book: options.snapshots,
        tokens: options.tokens,
        names: options.names,
        openFeed: (handlers) => openFeed(node.url, handlers),
        report: options.report,
        sink: fanOut,
      });
      this.followed.set(network, { monitor, fanOut, started: false });
    }
  }

  networks(): Network[] {
    return [...this.followed.keys()];
  }

  /**
   * Loads every device, then looks at the stored snapshots for what was stored but never judged (the relay was
   * killed in between), then follows the nodes: each reconcile catches up from each principal's synced height.
   */
  async start(): Promise<void> {
    await this.options.snapshots.load();
    await Promise.all([this.options.tokens.load(), this.options.names.load()]);
    const watches = new Map<string, StoredWatch[]>();
    for (const watch of await allWatches(this.options.db)) {
      const list = watches.get(watch.deviceId);
      if (list) list.push(watch);
      else watches.set(watch.deviceId, [watch]);
    }
    for (const device of await allDevices(this.options.db))
      this.deviceFor(device.id).setWatches(watches.get(device.id) ?? []);
    await Promise.all(
      [...this.devices.values()].map((device) =>
        device.alerter.start(
          [...device.listWatches()].flatMap((watch) => this.options.snapshots.get(watch.principal) ?? []),
        ),
      ),
    );
    for (const network of this.followed.keys()) this.follow(network);
  }

  async deviceChanged(deviceId: string, watches: readonly StoredWatch[]): Promise<void> {
    const device = this.deviceFor(deviceId);
    const added = device.setWatches(watches);
    // A watch new to this device starts from the chain tip: what its principal's snapshot holds now is history.
    for (const watch of added) {
      const snapshot = this.options.snapshots.get(watch.principal);
      const tip = this.followed.get(watch.network)?.monitor.status.tip?.height ?? null;
      if (snapshot)
        device.alerter.baseline(watch.network, watch.principal, [...snapshot.recent, ...snapshot.pending], tip);
    }
    await device.alerter.idle();
    for (const network of new Set(watches.map((watch) => watch.network))) this.follow(network);
    this.unfollowGone();
  }

  async deviceDeleted(deviceId: string): Promise<void> {
    const device = this.devices.get(deviceId);
    if (!device) return;
    this.devices.delete(deviceId);
    await device.alerter.idle();
    for (const network of this.followed.keys()) this.follow(network);
    this.unfollowGone();
  }

  health(): Record<string, { height: number | null; connected: boolean }> {
    return Object.fromEntries(
      [...this.followed].map(([network, { monitor }]) => [
        network,
        { height: monitor.status.tip?.height ?? null, connected: monitor.status.feed === 'live' },
      ]),
    );
  }

  /** Resolves once every device's alerts have judged and stored what they were handed so far. */
  async idle(): Promise<void> {
    await Promise.all([...this.devices.values()].map((device) => device.alerter.idle()));
    await this.options.snapshots.saved();
  }

  stop(): void {
    for (const { monitor } of this.followed.values()) monitor.stop();
  }

  private deviceFor(deviceId: string): DeviceAlerts {
    let device = this.devices.get(deviceId);
    if (!device) this.devices.set(deviceId, (device = new DeviceAlerts(deviceId, this.options)));
    return device;
  }

  private follow(network: Network): void {
    const followed = this.followed.get(network);
    if (!followed) return;
    const principals = followed.fanOut.route(this.devices.values());
    if (!followed.started) {
      // A network nobody watches is not connected to.
      if (principals.length === 0) return;
      followed.started = true;
      followed.monitor.start(principals);
    } else void followed.monitor.setPrincipals(principals);
  }

  /** Snapshots of principals no device watches any more are dropped (a later watch starts afresh). */
  private unfollowGone(): void {
    const watched = new Set(
      [...this.devices.values()].flatMap((device) => [...device.listWatches()].map((w) => w.principal)),
    );
    void this.options.snapshots.forget(
      this.options.snapshots
        .all()
        .map((snapshot) => snapshot.principal)
        .filter((principal) => !watched.has(principal)),
    );
  }
}
