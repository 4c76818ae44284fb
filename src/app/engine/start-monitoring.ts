import { SocketIoFeed } from '../../chain/feed.ts';
import { nodeFor, type NodeConfig } from '../../chain/networks.ts';
import { StacksRestClient } from '../../chain/rest-client.ts';
import { runtimeConfig } from '../../chain/page/runtime-config-load.ts';
import { schedulerFor } from '../../chain/host-schedulers.ts';
import { LOCAL_NODE_LIMITS } from '../../chain/scheduler.ts';
import { pacedStartsOf } from './paced-starts.ts';
import { StakingReader } from '../../chain/staking-reader.ts';
import type { Network } from '../../domain/network.ts';
import type { NodeChoices } from '../../domain/node-settings.ts';
import { NodeApiMemory } from '../../store/node-api-memory.ts';
import type { NameBook } from '../../store/name-book.ts';
import type { SnapshotBook } from '../../store/snapshot-book.ts';
import type { TokenCatalog } from '../../store/token-catalog.ts';
import type { WatchlistController } from '../../store/watchlist-state.ts';
import type { MonitorStatus } from '../../monitor/monitor-status.ts';
import { NetworkMonitor } from '../../monitor/network-monitor.ts';
import type { ActivitySink } from '../../monitor/ports.ts';

export interface MonitoringDeps {
  readonly watchlist: WatchlistController;
  readonly book: SnapshotBook;
  readonly tokens: TokenCatalog;
  readonly names?: NameBook;
  /** The user's node choices; a change restarts that network's monitor on the new node. */
  readonly settings: { get(): NodeChoices; subscribe(listener: () => void): () => void };
  /** Where the screens' requests arrive. */
  readonly commands: {
    connect(loadHoldings: (principal: string) => void, reconcile: (principal: string) => void): () => void;
  };
  readonly onStatus: (network: Network, status: MonitorStatus | null) => void;
  readonly report?: (problem: string) => void;
  /** Where new transactions go besides the snapshots (the alerts). */
  readonly sink?: ActivitySink;
  /** Calls back when a node worth trying again may be reachable now (back online, back in view). */
  readonly wake?: (listener: () => void) => () => void;
}

/** How often a node on this device is read while its feed is down. */
const LOCAL_REST_POLL_MS = 10_000;

/**
 * One monitor per network in use, each on its node, following the watch list as it changes. Loaded after the
 * first paint: it brings the API client and Socket.IO.
 */
export async function startMonitoring({
  watchlist,
  book,
  tokens,
  names,
  settings,
  commands,
  onStatus,
  report = console.warn,
  sink,
  wake,
}: MonitoringDeps): Promise<() => void> {
  const config = await runtimeConfig();
  const apiVersions = new NodeApiMemory();
  await apiVersions.load();
  const monitors = new Map<Network, { monitor: NetworkMonitor; node: NodeConfig; stopStatus: () => void }>();
  // Snapshots stored for addresses no longer watched (removed while the engine was not running) are dropped too.
  let principalsBefore = new Set(book.all().map((snapshot) => snapshot.principal));

  function monitorFor(network: Network): NetworkMonitor {
    const node = nodeFor(network, config, settings.get());
    // One pacer per node, shared with the history export (chain/host-schedulers.ts); a new pace applies at once.
    const scheduler = schedulerFor(node, pacedStartsOf(node.url));
    const existing = monitors.get(network);
    if (existing && existing.node.url === node.url && existing.node.apiKey === node.apiKey) return existing.monitor;
    if (existing) stopMonitor(network);
    const monitor = new NetworkMonitor({
      node,
      staking: new StakingReader(node, scheduler),
      rest: new StacksRestClient(node, scheduler, undefined, {
        knownV3: apiVersions.v3(node.url),
        onV3Learned: (v3) => apiVersions.remember(node.url, v3),
      }),
      book,
      tokens,
      anchors: apiVersions.anchorsOf(node.url),
      ...(names ? { names } : {}),
      openFeed: (handlers) => new SocketIoFeed(node.url, handlers),
      // While the feed is down, a node on this device (a devnet's budget: blocks every few seconds, no request
      // counted) is read every 10 s rather than every minute: its figures are never a minute behind.
      ...(node.limits.perMinute >= LOCAL_NODE_LIMITS.perMinute ? { restPollMs: LOCAL_REST_POLL_MS } : {}),
      report,
      ...(sink ? { sink } : {}),
    });
    const stopStatus = monitor.subscribe(() => onStatus(network, monitor.status));
    monitors.set(network, { monitor, node, stopStatus });
    return monitor;
  }

  function stopMonitor(network: Network): void {
    const running = monitors.get(network);
    if (!running) return;
    running.stopStatus();
    running.monitor.stop();
    monitors.delete(network);
    onStatus(network, null);
  }

  function follow(): void {
    const state = watchlist.getState();
    if (state.status !== 'ready') return;
    const byNetwork = new Map<Network, string[]>();
    for (const entry of state.entries) {
      const list = byNetwork.get(entry.network);
      if (list) list.push(entry.principal);
      else byNetwork.set(entry.network, [entry.principal]);
    }
    for (const [network, principals] of byNetwork) {
      const before = monitors.get(network)?.monitor;
      const monitor = monitorFor(network);
      if (monitor !== before) monitor.start(principals);
      else void monitor.setPrincipals(principals);
    }
    for (const network of [...monitors.keys()]) if (!byNetwork.has(network)) stopMonitor(network);
    const principalsNow = new Set(state.entries.map((entry) => entry.principal));
    void book.forget([...principalsBefore].filter((principal) => !principalsNow.has(principal)));
    principalsBefore = principalsNow;
  }

  const unsubscribe = watchlist.subscribe(follow);
  const unsubscribeSettings = settings.subscribe(follow);
  follow();
  const monitorOf = (principal: string): NetworkMonitor | undefined => {
    const state = watchlist.getState();
    const entry =
      state.status === 'ready' ? state.entries.find((candidate) => candidate.principal === principal) : undefined;
    return entry && monitors.get(entry.network)?.monitor;
  };
  const disconnectCommands = commands.connect(
    (principal) => void monitorOf(principal)?.loadHoldings(principal),
    // A failed read is retried by the monitor's own reconcile (it reads every address on each connect).
    (principal) =>
      void monitorOf(principal)
        ?.syncPrincipal(principal)
        .catch((error: unknown) => report(`Could not read ${principal} again: ${String(error)}`)),
  );
  const stopWaking = wake?.(() => monitors.forEach(({ monitor }) => monitor.retryNow()));
  return () => {
    unsubscribe();
    unsubscribeSettings();
    disconnectCommands();
    stopWaking?.();
    for (const network of [...monitors.keys()]) stopMonitor(network);
  };
}
