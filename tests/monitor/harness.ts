import { createStore, type UseStore } from 'idb-keyval';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { SocketIoFeed, type FeedHandlers } from '../../src/chain/feed.ts';
import type { NodeConfig } from '../../src/chain/networks.ts';
import { StacksRestClient } from '../../src/chain/rest-client.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS, type SchedulerOptions } from '../../src/chain/scheduler.ts';
import { StakingReader } from '../../src/chain/staking-reader.ts';
import type { AddressSnapshot } from '../../src/domain/state/snapshot.ts';
import { memoryAnchor, type AnchorPort } from '../../src/monitor/change-scout.ts';
import { NetworkMonitor } from '../../src/monitor/network-monitor.ts';
import type { ActivitySink } from '../../src/monitor/ports.ts';
import { SnapshotBook } from '../../src/store/snapshot-book.ts';
import { TokenCatalog } from '../../src/store/token-catalog.ts';
import { devnetHandlers } from '../../mocks/devnet/msw.ts';
import { DevnetNode } from '../../mocks/devnet/node.ts';
import { RealtimeHub } from '../../mocks/devnet/realtime.ts';
import type { Bond } from '../../mocks/devnet/staking-book.ts';
import { GlobalWebSocketTransport } from '../devnet/support/transports.ts';

export const ORIGIN = 'http://devnet.test:3999';
const server = setupServer();
const running: { stop(): void }[] = [];
let dbCount = 0;

/** MSW for the test file, and cleanup of every monitor a test started. */
export function serveDevnetThroughMsw(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    running.splice(0).forEach((item) => item.stop());
    server.resetHandlers();
  });
  afterAll(() => server.close());
}

export const mswServer = () => server;

/**
 * The next GET of `route` (a path under ORIGIN, `:principal` in it) that `when` accepts is answered as the devnet had
 * it when asked, but only after `meanwhile` ran: what the feed tells while an answer is on its way (two connections,
 * no order between them).
 */
export function answerNextAfter(
  devnet: DevnetNode,
  route: string,
  when: (principal: string) => boolean,
  meanwhile: () => Promise<void>,
): void {
  let armed = true;
  server.use(
    http.get(`${ORIGIN}${route}`, async ({ request, params }) => {
      if (!armed || !when(String(params['principal']))) return undefined;
      armed = false;
      const answer = await devnet.handle({
        method: 'GET',
        url: new URL(request.url),
        headers: Object.fromEntries(request.headers),
      });
      await meanwhile();
      return new HttpResponse(answer.status === 304 ? null : answer.body, {
        status: answer.status,
        headers: answer.headers,
      });
    }),
  );
}

export interface Rig {
  readonly devnet: DevnetNode;
  readonly monitor: NetworkMonitor;
  /**
   * The app closed and opened again: the monitor stops and a new one starts over the same stores, the same
   * resume anchor and the same HTTP validators (the browser's cache keeps them). Not started.
   */
  reopen(): NetworkMonitor;
  /**
   * The monitor of another tab that takes over: its own book, the same node, sink, resume anchor and HTTP validators
   * (stored per browser profile, not per tab). Not started; stopped with the test.
   */
  openOver(book: SnapshotBook): NetworkMonitor;
  readonly book: SnapshotBook;
  /** Where the book keeps its records: a second book over it reads what a reload would. */
  readonly snapshotStore: UseStore;
  readonly tokens: TokenCatalog;
  readonly rest: StacksRestClient;
  readonly scheduler: HostScheduler;
  readonly problems: string[];
  /** Resolves when `principal`'s snapshot satisfies `ready`. */
  until(principal: string, ready: (snapshot: AddressSnapshot) => boolean, timeoutMs?: number): Promise<AddressSnapshot>;
  control(path: string, body: unknown): Promise<Record<string, unknown>>;
}

/** A fresh devnet behind MSW, and a monitor of its testnet on it, not yet started. */
/** A sink that hands everything to the alerts `current()` names (the tab leading now, set once it exists). */
export function forwardTo(current: () => ActivitySink): ActivitySink {
  return {
    activities: (...args) => current().activities(...args),
    baseline: (...args) => current().baseline(...args),
    reverted: (...args) => current().reverted(...args),
    balance: (...args) => current().balance(...args),
    forked: (...args) => current().forked(...args),
    wantsDetail: (...args) => current().wantsDetail(...args),
  };
}

export function rig(
  options: {
    limits?: Partial<SchedulerOptions>;
    retryMs?: number;
    sink?: ActivitySink;
    /** Sees the handlers the monitor gives its feed, so that a test can hand them payloads of its own. */
    onFeed?: (handlers: FeedHandlers) => void;
    /** Where the monitor keeps its resume anchor (a fresh memory when not given). */
    anchors?: AnchorPort;
    /** Follow PoX-5 staking too. */
    staking?: boolean;
  } = {},
): Rig {
  const devnet = new DevnetNode({ blockMs: null, seed: 'monitor-tests' });
  const hub = new RealtimeHub(devnet.chain);
  server.resetHandlers(...devnetHandlers(devnet, hub, ORIGIN));
  const limits = {
    ...PUBLIC_NODE_DEFAULTS,
    maxConcurrent: 8,
    perMinute: 100_000,
    baseDelayMs: 5,
    maxDelayMs: 50,
    ...options.limits,
  };
  const node: NodeConfig = { network: 'testnet', url: ORIGIN, name: 'Test devnet', apiKey: null, limits };
  const scheduler = new HostScheduler(limits);
  const rest = new StacksRestClient(node, scheduler);
  const snapshotStore = createStore(`stacks-watch:snapshots:test-${++dbCount}`, 'by-principal');
  const book = new SnapshotBook(snapshotStore);
  const problems: string[] = [];
  const tokens = new TokenCatalog(createStore(`stacks-watch:tokens:test-${dbCount}`, 'metadata'));
  const anchors = options.anchors ?? memoryAnchor();
  const open = (over = book) =>
    new NetworkMonitor({
      node,
      rest,
      book: over,
      tokens,
      anchors,
      openFeed: (handlers) => (
        options.onFeed?.(handlers),
        new SocketIoFeed(ORIGIN, handlers, {
          transports: [GlobalWebSocketTransport],
          reconnectionDelay: 50,
          reconnectionDelayMax: 200,
        })
      ),
      report: (problem) => problems.push(problem),
      ...(options.retryMs ? { retryMs: options.retryMs } : {}),
      ...(options.sink ? { sink: options.sink } : {}),
      ...(options.staking ? { staking: new StakingReader(node, scheduler) } : {}),
    });
  let monitor = open();
  running.push({ stop: () => (monitor.stop(), hub.close(), devnet.close()) });
  return {
    devnet,
    get monitor() {
      return monitor;
    },
    reopen() {
      monitor.stop();
      monitor = open();
      return monitor;
    },
    openOver(over) {
      const other = open(over);
      running.push({ stop: () => other.stop() });
      return other;
    },
    book,
    snapshotStore,
    tokens,
    rest,
    scheduler,
    problems,
    until(principal, ready, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const snapshot = book.get(principal);
          if (snapshot && ready(snapshot)) {
            unsubscribe();
            clearTimeout(timer);
            resolve(snapshot);
          }
        };
        const unsubscribe = book.subscribe(principal, check);
        const timer = setTimeout(() => {
          unsubscribe();
          reject(
            new Error(
              `snapshot of ${principal} not ready in ${timeoutMs} ms: ${JSON.stringify(book.get(principal), (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}`,
            ),
          );
        }, timeoutMs);
        check();
      });
    },
    async control(path, body) {
      const response = await fetch(`${ORIGIN}${path}`, { method: 'POST', body: JSON.stringify(body) });
      return (await response.json()) as Record<string, unknown>;
    },
  };
}

/**
 * The admin sets up a bond with `staker` on its allow list, and `staker` enrols in it 0.5 BTC locked on Bitcoin and
 * `ustx` (20,000 STX unless told), each call mined by `mine` (the chain's own block unless the test mines its way).
 */
export async function enrolInNewBond(
  r: Rig,
  staker: string,
  options: { ustx?: bigint; mine?: () => Promise<unknown> } = {},
): Promise<Bond> {
  const chain = r.devnet.chain;
  const mine = options.mine ?? (async () => chain.mine());
  await r.control('/devnet/staking/bond', { allowlist: [{ staker, maxSats: '100000000' }] });
  await mine();
  const bond = [...chain.state.staking.bonds.values()].at(-1)!;
  await r.control('/devnet/staking/bond-register', {
    staker,
    index: bond.index,
    ustx: (options.ustx ?? 20_000_000_000n).toString(),
    type: 'l1',
    sats: '50000000',
  });
  await mine();
  return bond;
}
