import { SocketIoFeed, type FeedHandlers } from '../../chain/feed.ts';
import type { NodeConfig } from '../../chain/networks.ts';
import { NodeRest } from '../../chain/node-rest.ts';
import { StacksRestClient } from '../../chain/rest-client.ts';
import { HostScheduler } from '../../chain/scheduler.ts';
import { StakingReader } from '../../chain/staking-reader.ts';
import type { Network } from '../../domain/network.ts';
import type { FeedLike } from '../../monitor/ports.ts';
import type { SqlAnchors, SqlNames, SqlTokens } from '../storage/sql-facts.ts';
import type { SqlSnapshots } from '../storage/sql-snapshots.ts';
import { ChainWatch } from './chain-watch.ts';
import type { NetworkHealth } from './control.ts';
import type { DeviceAlerts } from './device-alerts.ts';
import { FanOut } from './fan-out.ts';

export interface FollowerOptions {
  readonly snapshots: SqlSnapshots;
  readonly tokens: SqlTokens;
  readonly names: SqlNames;
  readonly anchors: SqlAnchors;
  readonly report: (problem: string) => void;
  /** The node followed for each network the relay serves. */
  readonly nodes: Partial<Record<Network, NodeConfig>>;
  readonly openFeed?: (url: string, handlers: FeedHandlers) => FeedLike;
  /** How soon a node is asked again (tests scale time down with it); the follower's own default otherwise. */
  readonly timing?: MonitorTiming;
  /** This instance's name on a shared database ('' alone): its resume anchors are its own. */
  readonly instance?: string;
}

/** The follower's pace: how often the newest blocks are polled while the feed is away (`retryMs` is not used). */
export interface MonitorTiming {
  readonly retryMs?: number;
  readonly restPollMs?: number;
  /** How often the monitors are handed the batched changes at most (FOLLOW_EVERY_MS). */
  readonly followEveryMs?: number;
}

interface Followed {
  readonly monitor: ChainWatch;
  readonly fanOut: FanOut;
  started: boolean;
  /** A follow of the changed principals is due (several registrations in a row are handed over together). */
  due: Promise<void> | null;
  /** The principals followed or dropped since the monitor was last told, each with its last change (true: followed). */
  readonly changes: Map<string, boolean>;
  lastAt: number;
}

/**
 * The monitor is handed the principals dropped (a deletion) at most this often; those a registration or a change
 * follows are handed at once (`followNow`), before it is answered.
 */
const FOLLOW_EVERY_MS = 250;

/**
 * Per network one ChainWatch (each block read once, whatever the number of principals) over the union of the
 * devices' principals, and the FanOut that hands what it learns to the devices that watch them.
 */
export class NetworkFollowers {
  private readonly followed = new Map<Network, Followed>();
  private stopped = false;

  constructor(
    private readonly options: FollowerOptions,
    /** A device's alerts, by id: where the fan-outs hand what they learn. */
    open: (deviceId: string) => DeviceAlerts,
  ) {
    for (const [network, node] of Object.entries(options.nodes) as [Network, NodeConfig][]) {
      const fanOut = new FanOut(open);
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
      this.followed.set(network, { monitor, fanOut, started: false, due: null, lastAt: 0, changes: new Map() });
    }
  }

  networks(): Network[] {
    return [...this.followed.keys()];
  }

  /** Each network's fan-out: where a device's watches are followed and routed. */
  fanOuts(): Iterable<[Network, FanOut]> {
    return [...this.followed].map(([network, { fanOut }]) => [network, fanOut]);
  }

  /** Whether any network follows the principal for some device. */
  watched(principal: string): boolean {
    return [...this.followed.values()].some(({ fanOut }) => fanOut.watched(principal));
  }

  /** The newest block taken on the network, null before the first. */
  tipHeight(network: Network): number | null {
    return this.followed.get(network)?.monitor.tipHeight() ?? null;
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
            // What the chain follower follows (a registration's change reaches it within FOLLOW_EVERY_MS); those
            // the devices watch but it does not yet follow count as unsynced.
            principals: monitor.followed().size,
            unsynced: principals.filter(
              (principal) => (this.options.snapshots.get(principal)?.syncedHeight ?? null) === null,
            ).length,
          },
        ];
      }),
    );
  }

  /**
   * Hands the monitors what changed now, without waiting for the batch (a monitor's follow costs the change, not
   * every principal): from then on they hear of these principals.
   */
  followNow(): void {
    if (this.stopped) return;
    for (const [network, { changes }] of this.followed) if (changes.size > 0) this.follow(network);
  }

  /** Resolves once the follows due were handed over and everything learned so far was handed to the fan-outs. */
  async settled(): Promise<void> {
    await Promise.all([...this.followed.values()].map(({ due }) => due));
    await Promise.all([...this.followed.values()].map(({ monitor }) => monitor.settled()));
  }

  stop(): void {
    this.stopped = true;
    for (const { monitor } of this.followed.values()) monitor.stop();
  }

  /**
   * Hands the network's monitor the principals a device's change followed or dropped, soon (at most every
   * FOLLOW_EVERY_MS while devices keep changing).
   */
  followSoon(network: Network, fresh: readonly string[], dropped: readonly string[]): void {
    const followed = this.followed.get(network);
    if (!followed || this.stopped) return;
    for (const principal of dropped) followed.changes.set(principal, false);
    for (const principal of fresh) followed.changes.set(principal, true);
    if (followed.due) return;
    const every = this.options.timing?.followEveryMs ?? FOLLOW_EVERY_MS;
    const wait = Math.max(0, followed.lastAt + every - Date.now());
    followed.due = new Promise<void>((resolve) =>
      setTimeout(() => {
        followed.due = null;
        followed.lastAt = Date.now();
        if (!this.stopped) this.follow(network);
        resolve();
      }, wait),
    );
  }

  /** Hands each network's monitor its principals now (starting it once somebody watches the network). */
  followAll(): void {
    for (const network of this.followed.keys()) this.follow(network);
  }

  /** Starts the network's monitor on every principal followed, or hands it what changed since it was last told. */
  private follow(network: Network): void {
    const followed = this.followed.get(network);
    if (!followed) return;
    if (followed.started) {
      const changes = [...followed.changes];
      followed.changes.clear();
      followed.monitor.follow(
        changes.flatMap(([principal, on]) => (on ? [principal] : [])),
        changes.flatMap(([principal, on]) => (on ? [] : [principal])),
      );
      return;
    }
    const principals = followed.fanOut.principals();
    // A network nobody watches is not connected to.
    if (principals.length === 0) return;
    followed.started = true;
    followed.changes.clear();
    followed.monitor.start(principals);
  }
}
