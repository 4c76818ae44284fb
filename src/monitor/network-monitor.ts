import { decodeBlock, decodeStxV1, type ChainTip } from '../chain/decode.ts';
import { decodeWithTransfers } from '../chain/decode-activity.ts';
import type { FeedState } from '../chain/feed.ts';
import { errorMessage } from '../domain/error-message.ts';
import { troubleWords } from '../domain/text/node-trouble.ts';
import { mergeMined, supersededBy, type Activity, type StxBalance } from '../domain/state/snapshot.ts';
import { memoryAnchor, planReconcile, type AnchorPort } from './change-scout.ts';
import { HistorySync } from './history-sync.ts';
import { HoldingsKeeper } from './holdings-keeper.ts';
import { learnNames } from './name-learner.ts';
import { tellInOrder } from './tell-in-order.ts';
import { OrderedSink } from './ordered-sink.ts';
import { PendingKeeper } from './pending-keeper.ts';
import type { FeedLike } from './ports.ts';
import type { MonitorDeps } from './monitor-deps.ts';
import { ReorgTracker } from './reorg-tracker.ts';
import { RetryPacer } from './retry-pacer.ts';
import { followStaking, type StakingKeeper } from './staking-keeper.ts';

export type { MonitorDeps } from './monitor-deps.ts';

export interface MonitorStatus {
  readonly node: string;
  readonly feed: FeedState;
  /** Whether the feed was live at some moment since this monitor started: only then is a lost feed reconnecting. */
  readonly connectedOnce: boolean;
  readonly lastEventAt: number | null;
  readonly tip: ChainTip | null;
  readonly syncing: boolean;
  readonly problem: string | null;
  /** When a failed sync is tried again (epoch ms), while one is waiting. */
  readonly retryAt?: number | null;
}

const FIRST_RETRY_MS = 5000;
/** A node that stays unreachable is tried every five minutes at most: a phone's battery matters. */
const MAX_RETRY_MS = 300_000;

/**
 * Follows one network's watched principals on one node: a REST reconcile on every (re)connect, because the feed
 * replays nothing, then the feed's events. The node is the authority; events only move the snapshot forward.
 */
export class NetworkMonitor {
  private principals = new Set<string>();
  private feed: FeedLike | null = null;
  private readonly listeners = new Set<() => void>();
  private statusValue: MonitorStatus;
  private reconciling: Promise<void> | null = null;
  private readonly holdings: HoldingsKeeper;
  private readonly stakingKeeper: StakingKeeper | null;
  private readonly pending: PendingKeeper;
  private readonly history: HistorySync;
  private readonly reorg: ReorgTracker;
  private readonly retry: RetryPacer;
  /** A reconnect during a reconcile: its requests may predate what was missed, so another one is owed. */
  private reconcileAgain = false;
  private readonly now: () => number;
  private feedlessTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly sink: OrderedSink;
  /** The sync of each principal in flight: the next one waits for it. */
  private readonly syncs = new Map<string, Promise<void>>();
  private readonly anchors: AnchorPort;

  constructor(private readonly deps: MonitorDeps) {
    this.now = deps.now ?? Date.now;
    this.anchors = deps.anchors ?? memoryAnchor();
    this.sink = new OrderedSink(deps.sink, deps.report, (principal, activities) =>
      learnNames(deps.names, deps.rest, activities, principal),
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

  /** The node's host as people read it in an address bar. */
  private get host(): string {
    return new URL(this.deps.node.url).host;
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
        this.setStatus(feed === 'live' ? { feed, connectedOnce: true } : { feed });
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
        this.guard('address-stx-balance', () => this.onAddressBalance(principal, payload)),
      onTransaction: (txId, payload) =>
        this.guard('transaction', () => {
          this.pending.onTransaction(txId, payload);
          this.setStatus({ lastEventAt: this.now() });
        }),
      onRefused: (principal) => this.deps.report?.(`${this.deps.node.name} refused live updates for ${principal}`),
    });
    void this.feed.setPrincipals([...this.principals]);
    this.scheduleFeedlessSync(this.deps.feedlessSyncMs ?? 5000);
  }

  /** Keeps the snapshots current over REST while the feed is not live; the feed's reconnect takes over again. */
  private scheduleFeedlessSync(delayMs: number): void {
    this.feedlessTimer = setTimeout(() => {
      // A failed sync waiting to be tried again owns the next try: the node is not asked meanwhile.
      if (this.statusValue.feed !== 'live' && !this.retry.waiting) void this.reconcile();
      this.scheduleFeedlessSync(this.deps.restPollMs ?? 60_000);
    }, delayMs);
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
      this.setStatus({ tip: await this.deps.rest.status() });
    } catch {
      // The sync below fails too and is retried; the height known so far stands meanwhile.
    }
    await this.syncAll(added);
  }

  stop(): void {
    if (this.feedlessTimer) clearTimeout(this.feedlessTimer);
    this.feedlessTimer = null;
    this.retry.stop();
    this.feed?.close();
    this.feed = null;
    this.listeners.clear();
  }

  /** Chain tip, every principal's history since its newest known transaction and balance, then the mempool. */
  reconcile(): Promise<void> {
    if (this.reconciling) {
      this.reconcileAgain = true;
      return this.reconciling;
    }
    this.reconciling = (async () => {
      this.setStatus({ syncing: true });
      try {
        const tip = await this.deps.rest.status();
        // A re-org whose blocks the feed never announced (it was down): what the new fork mined at heights already
        // synced is no history.
        const unheard = await this.reorg.trail.forkUnder(tip, (height) => this.deps.rest.blockAt(height));
        if (unheard !== null) this.reorg.forked(unheard, this.principals);
        this.reorg.trail.reconciled(tip, unheard);
        await this.reorg.learnBlocksUnder(tip, (limit) => this.deps.rest.recentBlocks(limit));
        const reorgFrom = this.reorg.from;
        this.setStatus({ tip, problem: null });
        // Block events missed while the feed was away: what accrued meanwhile is read here.
        this.stakingKeeper?.reconciled(this.principals, tip.burnHeight);
        const { due, untouched } = await planReconcile({
          principals: [...this.principals],
          known: (principal) => this.deps.book.get(principal),
          midCatchUp: (principal) => this.history.midCatchUp(principal),
          anchor: reorgFrom === null ? this.anchors.get() : null,
          tip,
          rest: this.deps.rest,
        });
        this.markFresh(untouched, tip.height);
        const synced = await this.syncAll(due);
        if (synced && this.reorg.readPast(reorgFrom) && reorgFrom === null && tip.indexHash)
          this.anchors.set({ height: tip.height, indexHash: tip.indexHash });
        await this.pending.sync();
        if (synced) this.retry.reset();
      } catch (error) {
        this.setStatus({ problem: troubleWords(error, this.host) });
        this.retryLater();
      } finally {
        this.setStatus({ syncing: false });
        this.reconciling = null;
        if (this.reconcileAgain) {
          this.reconcileAgain = false;
          void this.reconcile();
        }
      }
    })();
    return this.reconciling;
  }

  /** Principals the chain has not touched since their last sync are as fresh as a read would make them. */
  private markFresh(principals: readonly string[], height: number): void {
    for (const principal of principals)
      this.deps.book.update(principal, this.deps.node.network, (snapshot) => ({
        ...snapshot,
        syncedAt: this.now(),
        syncedHeight: Math.max(snapshot.syncedHeight ?? height, height),
      }));
  }

  /** Syncs the principals; resolves false when some could not be (another reconcile is then scheduled). */
  async syncAll(principals: readonly string[]): Promise<boolean> {
    const failures = (await Promise.allSettled(principals.map((principal) => this.syncPrincipal(principal)))).filter(
      (result): result is PromiseRejectedResult => result.status === 'rejected',
    );
    if (failures.length === 0) return true;
    const problem = `${failures.length} of ${principals.length} addresses could not be synced. ${troubleWords(failures[0]!.reason, this.host)}`;
    this.setStatus({ problem });
    this.deps.report?.(problem);
    this.retryLater();
    return false;
  }

  /** Tries now what waits for its next try (the device came online, the app came back into view). */
  retryNow(): void {
    this.retry.now();
  }

  private retryLater(): void {
    if (this.feed) this.retry.later();
  }

  /** One request when nothing changed; two on a first sync (history page and balance); more only to catch up. */
  async syncPrincipal(principal: string): Promise<void> {
    // One sync of a principal at a time: two at once would read the same pages, and the second, answered 304 under
    // the first's ETag, would claim a history read that the first may yet fail to merge.
    await this.inTurn(principal, () => this.history.sync(principal));
  }

  /** Runs work on a principal after what is already under way for it (syncs, balance reads), one at a time. */
  private async inTurn(principal: string, work: () => Promise<void>): Promise<void> {
    const before = this.syncs.get(principal) ?? Promise.resolve();
    const turn = before.catch(() => {}).then(work);
    this.syncs.set(principal, turn);
    try {
      await turn;
    } finally {
      if (this.syncs.get(principal) === turn) this.syncs.delete(principal);
    }
  }

  /**
   * A stacking lock ends at a burn height with no transaction of the address, so nothing on the feed tells it:
   * only the balance is read then (one request; the history has not changed).
   */
  private async readUnlocked(principal: string): Promise<void> {
    await this.inTurn(principal, async () => {
      const before = this.deps.book.get(principal)?.stx ?? null;
      const stx = await this.deps.rest.stxBalance(principal);
      this.deps.book.update(principal, this.deps.node.network, (snapshot) => ({ ...snapshot, stx }));
      this.balanceLearned(principal, before, stx);
    }).catch((error: unknown) => {
      this.deps.report?.(
        `Could not read the balance of ${principal} after its stacking unlock: ${errorMessage(error)}`,
      );
      this.retryLater();
    });
  }

  /** Hands new transactions to the sink, in order with everything else (see tellInOrder). */
  private tell(principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    tellInOrder({ ...this.deps, sink: this.sink, holdings: this.holdings }, principal, activities, source);
  }

  /** Resolves once everything learned so far was handed to the sink. */
  async settled(): Promise<void> {
    await this.stakingKeeper?.settled();
    return this.sink.idle();
  }

  private balanceLearned(principal: string, before: StxBalance | null, after: StxBalance): void {
    this.sink.balance(this.deps.node.network, principal, before, after);
    this.stakingKeeper?.balanceChanged(principal, before, after, this.statusValue.tip?.burnHeight ?? null);
  }

  /** Tokens and NFTs of a principal, when someone looks at them. */
  loadHoldings(principal: string): Promise<void> {
    return this.holdings.load(principal);
  }

  /** A block no higher than the known tip means the chain re-organised: what was mined may be gone. */
  private onBlock(payload: unknown): void {
    const tip = decodeBlock(payload);
    const before = this.statusValue.tip;
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
    if (this.reconciling) return;
    for (const principal of this.principals) {
      const unlock = this.deps.book.get(principal)?.stx?.unlockBurnHeight;
      if (unlock != null && tip.burnHeight >= unlock && !this.syncs.has(principal)) void this.readUnlocked(principal);
    }
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

  /** Runs an event handler; a payload that fails validation is reported and skipped, never stored. */
  private guard(topic: string, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.deps.report?.(`Ignored a malformed ${topic} event from ${this.deps.node.name}: ${errorMessage(error)}`);
    }
  }

  private setStatus(change: Partial<MonitorStatus>): void {
    this.statusValue = { ...this.statusValue, ...change };
    this.listeners.forEach((listener) => listener());
  }
}
