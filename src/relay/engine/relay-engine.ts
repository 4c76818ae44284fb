import { SocketIoFeed } from '../../chain/feed.ts';
import type { NodeConfig } from '../../chain/networks.ts';
import { NodeRest } from '../../chain/node-rest.ts';
import { StacksRestClient } from '../../chain/rest-client.ts';
import { HostScheduler } from '../../chain/scheduler.ts';
import { StakingReader } from '../../chain/staking-reader.ts';
import type { Network } from '../../domain/network.ts';
import type { FeedLike } from '../../monitor/ports.ts';
import type { FeedHandlers } from '../../chain/feed.ts';
import { ChainWatch } from './chain-watch.ts';
import type { EngineControl, NetworkHealth } from './control.ts';
import { allDevices, allWatches, type StoredWatch } from '../storage/devices.ts';
import { readDeviceStates, type StoredDeviceState } from '../storage/device-alert-stores.ts';
import type { SqlAnchors, SqlNames, SqlTokens } from '../storage/sql-facts.ts';
import type { SqlSnapshots } from '../storage/sql-snapshots.ts';
import { DeviceAlerts, type SharedState } from './device-alerts.ts';
import { FanOut } from './fan-out.ts';

export interface EngineOptions extends Omit<SharedState, 'snapshots' | 'tokens' | 'names'> {
  readonly snapshots: SqlSnapshots;
  readonly tokens: SqlTokens;
  readonly names: SqlNames;
  readonly anchors: SqlAnchors;
  /** The node followed for each network the relay serves. */
  readonly nodes: Partial<Record<Network, NodeConfig>>;
  readonly openFeed?: (url: string, handlers: FeedHandlers) => FeedLike;
  /** How soon a node is asked again (tests scale time down with it); the follower's own default otherwise. */
  readonly timing?: MonitorTiming;
  /** This instance's name on a shared database ('' alone): its resume anchors are its own. */
  readonly instance?: string;
  /** Whether this instance judges for the device (its partition is leased here); every device when left out. */
  readonly owns?: (deviceId: string) => boolean;
}

/** The follower's pace: how often the newest blocks are polled while the feed is away (`retryMs` is not used). */
export interface MonitorTiming {
  readonly retryMs?: number;
  readonly restPollMs?: number;
}

interface Followed {
  readonly monitor: ChainWatch;
  readonly fanOut: FanOut;
  started: boolean;
  /** A follow of the changed principals is due (several registrations in a row are handed over together). */
  due: Promise<void> | null;
  lastAt: number;
}

const on = (network: Network, list: readonly StoredWatch[]): string[] =>
  list.filter((watch) => watch.network === network).map((watch) => watch.principal);

/** The monitor is handed the principals at most this often while devices keep registering. */
const FOLLOW_EVERY_MS = 250;

/**
 * Hosts the page's alerts for every device: per network one ChainWatch (each block read once, whatever the number of
 * principals) over the union of the devices' principals, and per device an Alerter with its rules.
 */
export class RelayEngine implements EngineControl {
  /** The devices this instance judges for. */
  private readonly devices = new Map<string, DeviceAlerts>();
  /** Every device's watches, judged here or not: what the followers follow. */
  private readonly watchesOf = new Map<string, readonly StoredWatch[]>();
  private readonly followed = new Map<Network, Followed>();
  private stopped = false;

  constructor(private readonly options: EngineOptions) {
    for (const [network, node] of Object.entries(options.nodes) as [Network, NodeConfig][]) {
      const fanOut = new FanOut();
      const openFeed = options.openFeed ?? ((url, handlers) => new SocketIoFeed(url, handlers));
      const scheduler = new HostScheduler(node.limits);
      const chain = new NodeRest(node, scheduler);
      const monitor = new ChainWatch({
        node,
        rest: new StacksRestClient(node, scheduler),
        get: (path) => chain.getUntyped('chain', path),
        staking: new StakingReader(node, scheduler),
        book: options.snapshots,
        tokens: options.tokens,
        names: options.names,
        // Its own key: the anchor the per-principal monitor kept under the node's URL names another kind of hash.
        anchor: options.anchors.of(`blocks ${node.url}${options.instance ? ` @${options.instance}` : ''}`),
        openFeed: (handlers) => openFeed(node.url, handlers),
        report: options.report,
        sink: fanOut,
        ...(options.timing?.restPollMs === undefined ? {} : { pollMs: options.timing.restPollMs }),
      });
      this.followed.set(network, { monitor, fanOut, started: false, due: null, lastAt: 0 });
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
    for (const network of this.followed.keys()) this.follow(network);
    // Snapshots of principals no device watches any more are dropped (a later watch starts afresh).
    const watched = (principal: string) => [...this.followed.values()].some(({ fanOut }) => fanOut.watched(principal));
    await this.options.snapshots.forget(
      this.options.snapshots
        .all()
        .map((snapshot) => snapshot.principal)
        .filter((principal) => !watched(principal)),
    );
  }

  /**
   * Starts judging for the devices (those this instance owns, of these): each reads its stored ledgers and alert
   * states, then judges what the snapshots hold that it has not seen — a restart's catch-up, and a dead instance's
   * devices taken over.
   */
  async adopt(deviceIds: readonly string[]): Promise<void> {
    const owns = this.options.owns ?? (() => true);
    const ids = deviceIds.filter((id) => !this.devices.has(id) && this.watchesOf.has(id) && owns(id));
    if (ids.length === 0) return;
    const stored = await readDeviceStates(this.options.db, ids);
    const adopted = ids.flatMap((id) => {
      // Deleted while its states were read, or taken by another instance meanwhile.
      if (this.devices.has(id) || !this.watchesOf.has(id) || !owns(id)) return [];
      const device = this.deviceFor(id, stored.get(id));
      this.route(device, this.watchesOf.get(id) ?? []);
      return [device];
    });
    await Promise.all(
      adopted.map((device) =>
        device.alerter.start(
          [...device.listWatches()].flatMap((watch) => this.options.snapshots.get(watch.principal) ?? []),
        ),
      ),
    );
  }

  /** Stops judging for the devices (their partition went to another instance); resolves once their writes are in. */
  async release(deviceIds: readonly string[]): Promise<void> {
    const released = deviceIds.flatMap((id) => {
      const device = this.devices.get(id);
      if (!device) return [];
      this.devices.delete(id);
      this.route(device, []);
      return [device];
    });
    await Promise.all(released.map((device) => device.alerter.idle()));
  }

  /** The devices this instance judges for. */
  judged(): string[] {
    return [...this.devices.keys()];
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
    return [...this.followed.values()].every(({ monitor, started }) => !started || monitor.caughtUp());
  }

  /** Reads each node's newest block and takes it (before devices are taken over: their last owner may have). */
  async catchUp(): Promise<void> {
    await Promise.all(
      [...this.followed.values()].filter(({ started }) => started).map(({ monitor }) => monitor.catchUp()),
    );
  }

  async deviceChanged(deviceId: string, watches: readonly StoredWatch[]): Promise<void> {
    this.setFollowed(deviceId, watches);
    // Another instance judges for it: followed here (for a takeover), judged there.
    if (!(this.options.owns?.(deviceId) ?? true)) return;
    const device = this.deviceFor(deviceId);
    const added = this.route(device, watches);
    // A watch new to this device starts from the chain tip: what its principal's snapshot holds now is history.
    for (const watch of added) {
      const snapshot = this.options.snapshots.get(watch.principal);
      const tip = this.followed.get(watch.network)?.monitor.tipHeight() ?? null;
      if (snapshot)
        device.alerter.baseline(watch.network, watch.principal, [...snapshot.recent, ...snapshot.pending], tip);
    }
    await device.alerter.idle();
  }

  async deviceDeleted(deviceId: string): Promise<void> {
    this.setFollowed(deviceId, []);
    const device = this.devices.get(deviceId);
    if (!device) return;
    this.devices.delete(deviceId);
    this.route(device, []);
    await device.alerter.idle();
  }

  health(): Record<string, NetworkHealth> {
    return Object.fromEntries(
      [...this.followed].map(([network, { monitor, fanOut }]) => {
        const principals = fanOut.principals();
        return [
          network,
          {
            height: monitor.status.tip?.height ?? null,
            connected: monitor.status.feed === 'live',
            // A feed that dropped and cannot reconnect says the node is away at once, unless the poll still reads it.
            reachable:
              monitor.status.feed === 'live' || (monitor.status.tip !== null && monitor.status.problem === null),
            principals: principals.length,
            unsynced: principals.filter(
              (principal) => (this.options.snapshots.get(principal)?.syncedHeight ?? null) === null,
            ).length,
          },
        ];
      }),
    );
  }

  /** Resolves once every device's alerts have judged and stored what they were handed so far. */
  async idle(): Promise<void> {
    await Promise.all([...this.followed.values()].map(({ due }) => due));
    await Promise.all([...this.followed.values()].map(({ monitor }) => monitor.settled()));
    await Promise.all([...this.devices.values()].map((device) => device.alerter.idle()));
    await this.options.snapshots.saved();
  }

  stop(): void {
    this.stopped = true;
    for (const { monitor } of this.followed.values()) monitor.stop();
  }

  private deviceFor(deviceId: string, stored?: StoredDeviceState): DeviceAlerts {
    let device = this.devices.get(deviceId);
    if (!device) this.devices.set(deviceId, (device = new DeviceAlerts(deviceId, this.options, stored)));
    return device;
  }

  /** Replaces the device's watches and routes only what changed to its alerts. Returns the watches new to it. */
  private route(device: DeviceAlerts, watches: readonly StoredWatch[]): StoredWatch[] {
    const { added, removed } = device.setWatches(watches);
    for (const [network, followed] of this.followed) {
      followed.fanOut.add(device, on(network, added));
      followed.fanOut.remove(device, on(network, removed));
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
    for (const [network, followed] of this.followed) {
      const fresh = followed.fanOut.follow(on(network, watches));
      const dropped = followed.fanOut.unfollow(on(network, before));
      gone.push(...dropped.filter((principal) => !followed.fanOut.watched(principal)));
      if (fresh.length > 0 || dropped.length > 0) this.followSoon(network);
    }
    if (gone.length > 0) void this.options.snapshots.forget(gone);
  }

  private followSoon(network: Network): void {
    const followed = this.followed.get(network);
    if (!followed || followed.due || this.stopped) return;
    const wait = Math.max(0, followed.lastAt + FOLLOW_EVERY_MS - Date.now());
    followed.due = new Promise<void>((resolve) =>
      setTimeout(() => {
        followed.due = null;
        followed.lastAt = Date.now();
        if (!this.stopped) this.follow(network);
        resolve();
      }, wait),
    );
  }

  private follow(network: Network): void {
    const followed = this.followed.get(network);
    if (!followed) return;
    const principals = followed.fanOut.principals();
    if (!followed.started) {
      // A network nobody watches is not connected to.
      if (principals.length === 0) return;
      followed.started = true;
      followed.monitor.start(principals);
    } else followed.monitor.setPrincipals(principals);
  }
}
