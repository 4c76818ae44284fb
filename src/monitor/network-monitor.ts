import { decodeBlock, decodeStxV1 } from '../chain/decode.ts';
import { decodeWithTransfers } from '../chain/decode-activity.ts';
import { middleEllipsis } from '../domain/address/middle-ellipsis.ts';
import { errorMessage } from '../domain/error-message.ts';
import { setAsideWords } from '../domain/text/node-trouble.ts';
import { mergeMined, supersededBy, type Activity, type StxBalance } from '../domain/state/snapshot.ts';
import { memoryAnchor, type AnchorPort } from './change-scout.ts';
import { HistorySync } from './history-sync.ts';
import { HoldingsKeeper } from './holdings-keeper.ts';
import { feedChange, type MonitorStatus } from './monitor-status.ts';
import { learnWords } from './name-learner.ts';
import { tellInOrder } from './tell-in-order.ts';
import { OrderedSink } from './ordered-sink.ts';
import { PendingKeeper } from './pending-keeper.ts';
import type { FeedLike } from './ports.ts';
import type { MonitorDeps } from './monitor-deps.ts';
import { Reconciler } from './reconciler.ts';
import { ReorgTracker } from './reorg-tracker.ts';
import { RetryPacer } from './retry-pacer.ts';
import { followStaking, type StakingKeeper } from './staking-keeper.ts';

export type { MonitorDeps } from './monitor-deps.ts';

const FIRST_RETRY_MS = 5000;
/** A node that stays unreachable is tried every five minutes at most: a phone's battery matters. */
const MAX_RETRY_MS = 300_000;

/**
 * Follows one network's watched principals on one node: a REST reconcile on every (re)connect (reconciler.ts),
 * because the feed replays nothing, then the feed's events. The node is the authority; events only move the snapshot forward.
 */
export class NetworkMonitor {
  private principals = new Set<string>();
  private feed: FeedLike | null = null;
  private readonly listeners = new Set<() => void>();
  private statusValue: MonitorStatus;
  private readonly holdings: HoldingsKeeper;
  private readonly stakingKeeper: StakingKeeper | null;
  private readonly pending: PendingKeeper;
  private readonly history: HistorySync;
  private readonly reorg: ReorgTracker;
  private readonly retry: RetryPacer;
  private readonly reconciler: Reconciler;
  private readonly now: () => number;
  private readonly sink: OrderedSink;
  private readonly anchors: AnchorPort;

  constructor(private readonly deps: MonitorDeps) {
    this.now = deps.now ?? Date.now;
    this.anchors = deps.anchors ?? memoryAnchor();
    this.sink = new OrderedSink(deps.sink, deps.report, (principal, activities) =>
      learnWords(deps, activities, principal, (contracts) => this.holdings.learnTokens(contracts)),
    );
    this.retry = new RetryPacer({
      firstMs: deps.retryMs ?? FIRST_RETRY_MS,
      maxMs: MAX_RETRY_MS,
      retry: () => void this.reconcile(),
      scheduled: (retryAt) => this.setStatus({ retryAt }),
      pace: (delayMs) => this.feed?.pace?.(delayMs),
      now: this.now,
    });
    this.reorg = new ReorgTracker(deps.node.network, deps.book, this.sink, () => deps.rest.forgetValidators());
    this.holdings = new HoldingsKeeper(deps);
    this.stakingKeeper = followStaking(deps, this.sink);
    this.pending = new PendingKeeper({
      ...deps,
      sink: this.sink,
      principals: () => this.principals,
      follow: (txIds) => this.feed?.setTransactions(txIds),
    });
    this.history = new HistorySync({
      ...deps,
      sink: this.sink,
      holdings: this.holdings,
      pending: this.pending,
      reorg: this.reorg,
      tip: () => this.statusValue.tip,
      now: this.now,
      tell: (principal, activities, source) => this.tell(principal, activities, source),
      readOnSoon: () => this.retryLater(),
      balance: (principal, before, after) => this.balanceLearned(principal, before, after),
      caughtUp: () => this.feed?.caughtUp?.() ?? Promise.resolve(),
    });
    this.reconciler = new Reconciler({
      ...deps,
      now: this.now,
      anchors: this.anchors,
      history: this.history,
      pending: this.pending,
      reorg: this.reorg,
      retry: this.retry,
      stakingKeeper: this.stakingKeeper,
      principals: () => this.principals,
      status: () => this.statusValue,
      setStatus: (change) => this.setStatus(change),
      retryLater: () => this.retryLater(),
      balance: (principal, before, after) => this.balanceLearned(principal, before, after),
    });
    this.statusValue = {
      node: deps.node.name,
      feed: 'connecting',
      connectedOnce: false,
      lastEventAt: null,
      tip: null,
      syncing: false,
      problem: null,
    };
  }

  get status(): MonitorStatus {
    return this.statusValue;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  start(principals: readonly string[]): void {
    this.principals = new Set(principals);
    // The block the last run was complete up to: replaced while the app was closed, it was re-organised away.
    const anchor = this.anchors.get();
    if (anchor) this.reorg.trail.note(anchor);
    this.feed = this.deps.openFeed({
      onState: (feed) => {
        if (feed !== 'live') this.reorg.trail.interrupted();
        this.setStatus(feedChange(this.statusValue, feed, this.now()));
      },
      onConnected: () => void this.reconcile(),
      onBlock: (payload) => this.guard('block', () => this.onBlock(payload)),
      onMempool: (payload) =>
        this.guard('mempool', () => {
          this.pending.onMempool(payload);
          this.setStatus({ lastEventAt: this.now() });
        }),
      onAddressTransaction: (principal, payload) =>
        this.guard('address-transaction', () => this.onAddressTransaction(principal, payload)),
      onAddressBalance: (principal, payload) =>
        this.guard(
          'address-stx-balance',
          () => this.onAddressBalance(principal, payload),
          `balance for ${middleEllipsis(principal)}`,
        ),
      onTransaction: (txId, payload) =>
        this.guard('transaction', () => {
          this.pending.onTransaction(txId, payload);
          this.setStatus({ lastEventAt: this.now() });
        }),
      onRefused: (principal) => this.deps.report?.(`${this.deps.node.name} refused live updates for ${principal}`),
    });
    void this.feed.setPrincipals([...this.principals]);
    this.reconciler.scheduleFeedlessSync(this.deps.feedlessSyncMs ?? 5000);
  }

  /** Follows a new set of principals; the new ones are synced once their live updates are subscribed. */
  async setPrincipals(principals: readonly string[]): Promise<void> {
    const added = principals.filter((principal) => !this.principals.has(principal));
    this.principals = new Set(principals);
    await this.feed?.setPrincipals(principals);
    if (added.length === 0) return;
    // The chain's height now, not as the last block event said: what the new addresses' first sync finds at or below
    // it predates their watch. One request for all of them.
    try {
      await this.reconciler.readTip();
    } catch {
      // The sync below fails too and is retried; the height known so far stands meanwhile.
    }
    await this.syncAll(added);
  }

  stop(): void {
    this.reconciler.stop();
    this.retry.stop();
    this.feed?.close();
    this.feed = null;
    this.listeners.clear();
  }

  /** Chain tip, every principal's history since its newest known transaction and balance, then the mempool. */
  reconcile(): Promise<void> {
    return this.reconciler.reconcile();
  }

  /** Syncs the principals; resolves false when some could not be (another reconcile is then scheduled). */
  syncAll(principals: readonly string[]): Promise<boolean> {
    return this.reconciler.syncAll(principals);
  }

  /** Tries now what waits for its next try (the device came online, the app came back into view). */
  retryNow(): void {
    this.retry.now();
  }

  private retryLater(): void {
    if (this.feed) this.retry.later();
  }

  /** One request when nothing changed; two on a first sync (history page and balance); more only to catch up. */
  syncPrincipal(principal: string): Promise<void> {
    return this.reconciler.syncPrincipal(principal);
  }

  /** Hands new transactions to the sink, in order with everything else (see tellInOrder). */
  private tell(principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    tellInOrder({ ...this.deps, sink: this.sink, holdings: this.holdings }, principal, activities, source);
    this.stakingKeeper?.transactions(principal, activities, this.statusValue.tip?.burnHeight ?? null);
  }

  /** Resolves once everything learned so far was handed to the sink. */
  async settled(): Promise<void> {
    await this.stakingKeeper?.settled();
    return this.sink.idle();
  }

  private balanceLearned(principal: string, before: StxBalance | null, after: StxBalance): void {
    // A good balance read since: what was set aside before is no longer what the panel needs to say.
    if (this.statusValue.setAside) this.setStatus({ setAside: null });
    this.sink.balance(this.deps.node.network, principal, before, after);
    this.stakingKeeper?.balanceChanged(principal, before, after, this.statusValue.tip?.burnHeight ?? null);
    // Read before the tip passed its unlock height, it may tell a lock that is over.
    void this.reconciler.readIfUnlocked(principal);
  }

  /** Tokens and NFTs of a principal, when someone looks at them. */
  loadHoldings(principal: string): Promise<void> {
    return this.holdings.load(principal);
  }

  /** A block no higher than the known tip means the chain re-organised: what was mined may be gone. */
  private onBlock(payload: unknown): void {
    const tip = decodeBlock(payload);
    const before = this.statusValue.tip;
    this.reconciler.heardBlock();
    this.setStatus({ tip, lastEventAt: this.now() });
    this.reorg.trail.note(tip);
    // Rewards accrue at cycle boundaries with no transaction: stakers are read again at each new burn block, and
    // after a re-org (it may have taken a claim back), whatever else is under way.
    this.stakingKeeper?.burnBlock(this.principals, tip.burnHeight, before !== null && tip.height <= before.height);
    if (before && tip.height <= before.height) {
      this.reorg.forked(tip.height, this.principals);
      void this.reconcile();
      return;
    }
    // A lock that ran out: its balance is read after whatever is under way for it (a reconcile or a sync may have
    // read it just before this block, and would not read it again).
    for (const principal of this.principals) void this.reconciler.readIfUnlocked(principal);
  }

  private onAddressTransaction(principal: string, payload: unknown): void {
    if (!this.principals.has(principal)) return;
    const activity = decodeWithTransfers({ value: payload, path: '$' }, principal);
    // The history page held under an ETag predates this: were the block re-orged away unseen (a dropped socket),
    // that page would come back unchanged and hide it.
    this.deps.rest.forgetValidatorsOf(principal);
    this.history.heard(principal, activity.txId);
    const before = this.deps.book.get(principal);
    const superseded = supersededBy(before?.pending ?? [], [activity]);
    this.deps.book.update(principal, this.deps.node.network, (snapshot) => mergeMined(snapshot, [activity]));
    if (before?.pending.some((known) => known.txId === activity.txId) || superseded.length > 0)
      this.pending.followAll();
    this.setStatus({ lastEventAt: this.now() });
    if (superseded.length > 0) this.sink.activities(this.deps.node.network, principal, superseded, 'live');
    this.tell(principal, [activity], 'live');
  }

  private onAddressBalance(principal: string, payload: unknown): void {
    if (!this.principals.has(principal)) return;
    const stx = decodeStxV1(payload);
    const before = this.deps.book.get(principal)?.stx ?? null;
    this.deps.book.update(principal, this.deps.node.network, (snapshot) => ({ ...snapshot, stx }));
    this.balanceLearned(principal, before, stx);
    this.setStatus({ lastEventAt: this.now() });
  }

  /**
   * Runs an event handler; a payload that fails validation is reported and skipped, never stored, and the connection
   * panel says so (`subject`: what it was, "balance for ST…"; else the topic's event).
   */
  private guard(topic: string, handle: () => void, subject = `${topic} event`): void {
    try {
      handle();
    } catch (error) {
      this.deps.report?.(`Ignored a malformed ${topic} event from ${this.deps.node.name}: ${errorMessage(error)}`);
      this.setStatus({ setAside: setAsideWords(subject, error, this.deps.node.name) });
    }
  }

  private setStatus(change: Partial<MonitorStatus>): void {
    const was = this.statusValue;
    // A run of failures is one problem: it began at the first, whatever the words of the later ones.
    const since =
      change.problem === undefined
        ? {}
        : {
            problemSince: change.problem === null ? null : was.problem ? (was.problemSince ?? this.now()) : this.now(),
          };
    this.statusValue = { ...was, ...change, ...since };
    this.listeners.forEach((listener) => listener());
  }
}
