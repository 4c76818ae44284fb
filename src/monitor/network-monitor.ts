import { decodeBlock, decodeStxV1, type ChainTip } from '../chain/decode.ts';
import { decodeWithTransfers } from '../chain/decode-activity.ts';
import type { FeedHandlers, FeedState } from '../chain/feed.ts';
import type { NodeConfig } from '../chain/networks.ts';
import { UNCHANGED, type StacksRestClient } from '../chain/rest-client.ts';
import type { StakingReader } from '../chain/staking-reader.ts';
import { troubleWords } from '../domain/node-trouble.ts';
import type { Network } from '../domain/network.ts';
import {
  emptySnapshot,
  lostInReorg,
  mergeMined,
  supersededBy,
  withPending,
  type Activity,
  type AddressSnapshot,
  type StxBalance,
} from '../domain/snapshot.ts';
import { memoryAnchor, planReconcile, type AnchorPort } from './change-scout.ts';
import { HoldingsKeeper } from './holdings-keeper.ts';
import { OrderedSink } from './ordered-sink.ts';
import { PendingKeeper } from './pending-keeper.ts';
import { followStaking, type StakingChange, type StakingKeeper } from './staking-keeper.ts';
import type { NamePort, SnapshotPort, TokenPort } from './ports.ts';

export interface MonitorStatus {
  readonly node: string;
  readonly feed: FeedState;
  readonly lastEventAt: number | null;
  readonly tip: ChainTip | null;
  readonly syncing: boolean;
  readonly problem: string | null;
  /** When a failed sync is tried again (epoch ms), while one is waiting. */
  readonly retryAt?: number | null;
}

export interface FeedLike {
  /** Resolves once the new principals' topics are subscribed. */
  setPrincipals(principals: readonly string[]): Promise<void>;
  /** The transactions whose state changes are wanted (the watched addresses' pending ones); resolves to those newly subscribed. */
  setTransactions(txIds: readonly string[]): Promise<readonly string[]> | void;
  close(): void;
  /**
   * Reconnects no sooner than about this long apart while the node cannot be reached over REST either (null: the
   * feed's own pace again), so that the socket and the REST probes back off together.
   */
  pace?(delayMs: number | null): void;
}

/** Where what the monitor learns about transactions goes besides the snapshots: the alerts. */
export interface ActivitySink {
  /**
   * Transactions seen for a principal, in their current state: `live` from the feed, `sync` from a reconcile (what
   * happened while disconnected, or a first sync's history).
   */
  activities(network: Network, principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void;
  /**
   * What a principal's first sync found (its history page and what it has pending), at chain height `height`:
   * everything that predates the watch.
   */
  /**
   * An address's first sync: its history at chain height `height` and what it had pending. When the node listed more
   * pending than was read, `pendingBefore` is the receipt time (node clock, Unix seconds) of the oldest one read: a
   * pending transaction received no later than it was pending before the watch too.
   */
  baseline(
    network: Network,
    principal: string,
    activities: readonly Activity[],
    height: number | null,
    pendingBefore?: number | null,
  ): void;
  /**
   * Transactions that left the canonical chain (a re-org), and the node's history as read: what the sink told of
   * at heights above `coveredAbove` (all heights when null) and `present` lacks is gone too, though the bounded
   * snapshot no longer holds it.
   */
  reverted(network: Network, principal: string, activities: readonly Activity[], scope?: ReorgScope): void;
  balance(network: Network, principal: string, before: StxBalance | null, after: StxBalance): void;
  /** A principal's PoX-5 staking as read (before is null on its first read: history). */
  staking?(network: Network, principal: string, change: StakingChange): void;
  /** A block was announced again at `height` (a re-org): what is mined from there on can be new. */
  forked(network: Network, principal: string, height: number): void;
  /** Whether token movements of new contract calls are wanted (one more request), i.e. the principal is past its first sync. */
  wantsDetail(network: Network, principal: string): boolean;
}

export interface ReorgScope {
  readonly coveredAbove: number | null;
  readonly present: ReadonlySet<string>;
  /** The lowest height the new fork may have rewritten: what is mined there now can be new, whatever it was. */
  readonly forkFrom: number | null;
}

export interface MonitorDeps {
  readonly node: NodeConfig;
  readonly rest: StacksRestClient;
  readonly book: SnapshotPort;
  readonly tokens?: TokenPort;
  /** BNS names of counterparties, looked up before what involves them is told. */
  readonly names?: NamePort;
  readonly openFeed: (handlers: FeedHandlers) => FeedLike;
  readonly now?: () => number;
  /** Something a node sent that was refused (malformed, unexpected): reported, never stored. */
  readonly report?: (problem: string) => void;
  /** Without a live feed (WebSockets blocked, node down), sync over REST after this long, then every `restPollMs`. */
  readonly feedlessSyncMs?: number;
  readonly restPollMs?: number;
  /** After a sync that failed (the node refused or was unreachable), try again after this long, doubling each time. */
  readonly retryMs?: number;
  readonly sink?: ActivitySink;
  /** Reads PoX-5 staking; without it, staking is not followed. */
  readonly staking?: StakingReader;
  /** Where the block that every principal was last complete up to is kept (in memory when not given). */
  readonly anchors?: AnchorPort;
}

const FIRST_RETRY_MS = 5000;
/** New counterparties whose BNS names are looked up before one batch is told. */
const MAX_NAME_LOOKUPS = 4;
/** A node that stays unreachable is tried every five minutes at most: a phone's battery matters. */
const MAX_RETRY_MS = 300_000;

/**
 * How many history pages (of 20) one sync may walk back to meet where the last complete one stopped. A sync that
 * runs out keeps the height it started from, so the next one reads on: nothing is left behind as synced.
 */
const MAX_CATCH_UP_PAGES = 50;

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
  /** A reconnect during a reconcile: its requests may predate what was missed, so another one is owed. */
  private reconcileAgain = false;
  private readonly now: () => number;
  private feedlessTimer: ReturnType<typeof setTimeout> | null = null;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private retryDelayMs: number;
  private readonly sink: OrderedSink;
  /** The lowest height a block was announced at again (a re-org): syncs read below it until one completes. */
  private reorgFrom: number | null = null;
  /**
   * What each principal's history held when the re-org was announced, before the new fork's events arrive: they
   * can push the orphaned transactions out of the bounded history before the reconcile looks for them.
   */
  private beforeReorg = new Map<string, readonly Activity[]>();
  /** Where each principal's catch-up, cut short by the page budget, goes on, and the height it began at. */
  private readonly resumeAt = new Map<string, { cursor: string; height: number | null }>();
  /** The sync of each principal in flight: the next one waits for it. */
  private readonly syncs = new Map<string, Promise<void>>();
  private readonly anchors: AnchorPort;

  constructor(private readonly deps: MonitorDeps) {
    this.now = deps.now ?? Date.now;
    this.anchors = deps.anchors ?? memoryAnchor();
    this.retryDelayMs = deps.retryMs ?? FIRST_RETRY_MS;
    this.sink = new OrderedSink(deps.sink, deps.report, (principal, activities) =>
      this.learnNames(activities, principal),
    );
    this.holdings = new HoldingsKeeper(deps);
    this.stakingKeeper = followStaking(deps, this.sink);
    this.pending = new PendingKeeper({
      ...deps,
      sink: this.sink,
      principals: () => this.principals,
      follow: (txIds) => this.feed?.setTransactions(txIds),
    });
    this.statusValue = {
      node: deps.node.name,
      feed: 'connecting',
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
    this.feed = this.deps.openFeed({
      onState: (feed) => this.setStatus({ feed }),
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
      if (this.statusValue.feed !== 'live' && !this.retryTimer) void this.reconcile();
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
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.feedlessTimer = null;
    this.retryTimer = null;
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
        const reorgFrom = this.reorgFrom;
        const tip = await this.deps.rest.status();
        this.setStatus({ tip, problem: null });
        // Block events missed while the feed was away: what accrued meanwhile is read here.
        this.stakingKeeper?.burnBlock(this.principals, tip.burnHeight);
        const { due, untouched } = await planReconcile({
          principals: [...this.principals],
          known: (principal) => this.deps.book.get(principal),
          midCatchUp: (principal) => this.resumeAt.has(principal),
          anchor: reorgFrom === null ? this.anchors.get() : null,
          tip,
          rest: this.deps.rest,
        });
        this.markFresh(untouched, tip.height);
        const synced = await this.syncAll(due);
        if (synced && this.reorgFrom === reorgFrom) {
          this.reorgFrom = null;
          this.beforeReorg.clear();
          if (reorgFrom === null && tip.indexHash) this.anchors.set({ height: tip.height, indexHash: tip.indexHash });
        }
        await this.pending.sync();
        if (synced) this.backOffReset();
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

  /**
   * A failed sync is tried again without waiting for the next reconnect: with a live feed there may be none, and
   * what the sync missed would stay missed.
   */
  /**
   * Tries now what waits for its next try (the device came online, the app came back into view), and resets the
   * backoff; nothing happens when nothing waits.
   */
  retryNow(): void {
    if (!this.retryTimer) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    this.backOffReset();
    void this.reconcile();
  }

  private backOffReset(): void {
    this.retryDelayMs = this.deps.retryMs ?? FIRST_RETRY_MS;
    this.setStatus({ retryAt: null });
    this.feed?.pace?.(null);
  }

  private retryLater(): void {
    if (this.retryTimer || !this.feed) return;
    // Jittered, so that tabs and devices that lost the same node do not come back in step.
    const delay = Math.round(this.retryDelayMs * (0.5 + Math.random() * 0.5));
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.setStatus({ retryAt: null });
      void this.reconcile();
    }, delay);
    this.setStatus({ retryAt: this.now() + delay });
    this.feed.pace?.(delay);
    this.retryDelayMs = Math.min(this.retryDelayMs * 2, MAX_RETRY_MS);
  }

  /** One request when nothing changed; two on a first sync (history page and balance); more only to catch up. */
  async syncPrincipal(principal: string): Promise<void> {
    // One sync of a principal at a time: two at once would read the same pages, and the second, answered 304 under
    // the first's ETag, would claim a history read that the first may yet fail to merge.
    await this.inTurn(principal, () => this.readHistoryOnce(principal));
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
      this.deps.report?.(`Could not read the balance of ${principal} after its stacking unlock: ${describe(error)}`);
      this.retryLater();
    });
  }

  private async readHistoryOnce(principal: string): Promise<void> {
    try {
      await this.readHistory(principal);
    } catch (error) {
      // A page read under an ETag but never merged would come back as a 304 and hide what it held.
      this.deps.rest.forgetValidatorsOf(principal);
      throw error;
    }
  }

  private async readHistory(principal: string): Promise<void> {
    const known = this.snapshot(principal);
    const firstSync = known.syncedAt === null;
    const syncedHeight = known.syncedHeight ?? null;
    const heightNow = this.statusValue.tip?.height ?? null;
    const reorgFrom = this.reorgFrom;
    // A catch-up cut short by the page budget goes on from where it stopped, and then counts from when it began.
    const resume = firstSync || reorgFrom !== null ? undefined : this.resumeAt.get(principal);
    const read = await this.readPages(principal, known, firstSync, syncedHeight, reorgFrom, resume?.cursor ?? null);
    if (read.complete) this.resumeAt.delete(principal);
    else if (read.next) this.resumeAt.set(principal, { cursor: read.next, height: resume?.height ?? heightNow });
    const knownIds = new Set(known.recent.map((activity) => activity.txId));
    const mined = read.items.filter((activity) => !knownIds.has(activity.txId));
    // A re-org: known transactions the node no longer lists. Compared by identity over what was read.
    const candidates = [...known.recent, ...(this.beforeReorg.get(principal) ?? [])].filter(
      (activity, index, all) => all.findIndex((other) => other.txId === activity.txId) === index,
    );
    // A resumed catch-up read only older pages: the newer history it skipped proves nothing gone.
    const lost = read.unchanged || resume ? [] : lostInReorg(candidates, read.items, read.coveredAbove);
    const tip = this.statusValue.tip;
    const unlockDue =
      known.stx?.unlockBurnHeight != null && tip !== null && tip.burnHeight >= known.stx.unlockBurnHeight;
    const refetch = mined.length > 0 || lost.length > 0 || !known.stx || unlockDue;
    const stx = refetch ? await this.deps.rest.stxBalance(principal) : known.stx;
    // A newly watched address shows what it has pending at once: one more request, only when the node says there is
    // something pending (or cannot say: an older node).
    // A contract's pending calls never show in its STX balance: always asked.
    const maybePending = stx?.pending !== false || principal.includes('.');
    const mempool = firstSync && maybePending ? await this.deps.rest.mempoolOf(principal) : null;
    const pending = mempool?.items ?? null;
    // Only the newest pages were read: the rest, older, were pending before the watch as much as these.
    const pendingBefore =
      mempool && !mempool.complete && pending!.length > 0 ? Math.min(...pending!.map((a) => a.time)) : null;
    const lostIds = new Set(lost.map((activity) => activity.txId));
    const superseded = supersededBy(known.pending, read.items);
    const after = this.deps.book.update(principal, this.deps.node.network, (snapshot) => {
      const kept =
        lostIds.size > 0 ? { ...snapshot, recent: snapshot.recent.filter((a) => !lostIds.has(a.txId)) } : snapshot;
      const merged = mergeMined(kept, read.items);
      return {
        ...(pending
          ? withPending(merged, [
              ...merged.pending,
              ...pending.filter((a) => !merged.pending.some((b) => b.txId === a.txId)),
            ])
          : merged),
        stx,
        syncedAt: this.now(),
        // A catch-up cut short by the page budget has not read down to where the last one stopped.
        syncedHeight: read.complete ? (resume?.height ?? heightNow ?? syncedHeight) : syncedHeight,
      };
    });
    const { network } = this.deps.node;
    // A re-org (announced, or found by what it took): the alerts also revert what the bounded history let go of.
    if ((reorgFrom !== null || lost.length > 0) && !read.unchanged)
      this.sink.reverted(network, principal, lost, {
        coveredAbove: read.coveredAbove,
        present: new Set(read.items.map((activity) => activity.txId)),
        forkFrom: reorgFrom ?? Math.min(...lost.map((activity) => activity.blockHeight ?? Infinity)),
      });
    if (lost.length > 0 && after.holdings) void this.holdings.load(principal);
    if (stx && stx !== known.stx) this.balanceLearned(principal, known.stx, stx);
    if (firstSync) {
      this.sink.baseline(network, principal, [...after.recent, ...after.pending], heightNow, pendingBefore);
      if (pending && pending.length > 0) this.pending.followAll();
      return;
    }
    if (superseded.length > 0) this.sink.activities(network, principal, superseded, 'sync');
    if (mined.length > 0) this.tell(principal, mined, 'sync');
    if (!read.complete) this.retryLater();
  }

  /**
   * Reads history pages, newest first. A first sync keeps one page. Later ones walk back (within the page budget)
   * until they are past the height the last complete sync reached and past the newest known transaction; when that
   * one is gone (a re-org), on until a known transaction still in place anchors what remains.
   */
  private async readPages(
    principal: string,
    known: AddressSnapshot,
    firstSync: boolean,
    syncedHeight: number | null,
    reorgFrom: number | null,
    startCursor: string | null,
  ): Promise<{
    items: Activity[];
    coveredAbove: number | null;
    unchanged: boolean;
    complete: boolean;
    next?: string | null;
  }> {
    const newest = known.recent[0];
    const knownHeights = new Map(known.recent.map((activity) => [activity.txId, activity.blockHeight]));
    const items: Activity[] = [];
    let cursor: string | null = startCursor;
    let lowest = Infinity;
    for (let page = 0; page < MAX_CATCH_UP_PAGES; page++) {
      const answer = await this.deps.rest.transactions(principal, cursor);
      if (answer === UNCHANGED) return { items, coveredAbove: lowest, unchanged: items.length === 0, complete: true };
      items.push(...answer.items);
      // The lowest block read may continue on the next page: only the heights above it are read whole.
      lowest = Math.min(lowest, ...answer.items.map((activity) => activity.blockHeight ?? Infinity));
      if (!answer.next) return { items, coveredAbove: null, unchanged: false, complete: true };
      if (firstSync) return { items, coveredAbove: lowest, unchanged: false, complete: true };
      const pastSynced = syncedHeight === null ? newest !== undefined : lowest <= syncedHeight;
      const newestFound = newest === undefined || items.some((activity) => activity.txId === newest.txId);
      const anchored = items.some(
        (activity) => knownHeights.has(activity.txId) && knownHeights.get(activity.txId) === activity.blockHeight,
      );
      const pastNewest = newest === undefined || lowest < (newest.blockHeight ?? 0);
      const pastFork = reorgFrom === null || lowest < reorgFrom;
      if (pastSynced && pastNewest && pastFork && (newestFound || anchored))
        return { items, coveredAbove: lowest, unchanged: false, complete: true };
      cursor = answer.next;
    }
    return { items, coveredAbove: lowest, unchanged: false, complete: false, next: cursor };
  }

  /**
   * Hands new transactions to the sink, in order with everything else, with their movements when it (or a screen)
   * wants them.
   */
  private tell(principal: string, activities: readonly Activity[], source: 'live' | 'sync'): void {
    const { node, book } = this.deps;
    this.sink.after(async () => {
      const wanted = this.sink.wantsDetail(node.network, principal) || book.get(principal)?.holdings;
      const detailed = wanted ? await this.holdings.detail(principal, activities) : activities;
      // Whether a token that came in was held before (the spam guard) needs the holdings: read once, when first needed.
      if (wanted && !book.get(principal)?.holdings && detailed.some((activity) => receivesTokens(activity, principal)))
        await this.holdings.load(principal);
      await this.learnNames(detailed, principal);
      return (sink) => sink.activities(node.network, principal, detailed, source);
    });
  }

  /** The BNS names of the other parties (at most a few new ones a time), so that words name them. */
  private async learnNames(activities: readonly Activity[], principal: string): Promise<void> {
    const names = this.deps.names;
    if (!names) return;
    const parties = new Set<string>();
    for (const activity of activities) {
      for (const movement of activity.movements ?? [])
        for (const party of [movement.sender, movement.recipient]) if (party) parties.add(party);
      if (activity.counterparty) parties.add(activity.counterparty);
    }
    const unknown = [...parties].filter(
      (party) => party !== principal && !party.includes('.') && names.get(party) === undefined,
    );
    for (const party of unknown.slice(0, MAX_NAME_LOOKUPS)) {
      try {
        await names.add(party, await this.deps.rest.bnsName(party));
      } catch {
        // Named by its short address until a later lookup succeeds.
      }
    }
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
    // Rewards accrue at cycle boundaries with no transaction: stakers are read again at each new burn block, and
    // after a re-org (it may have taken a claim back), whatever else is under way.
    this.stakingKeeper?.burnBlock(this.principals, tip.burnHeight, before !== null && tip.height <= before.height);
    if (before && tip.height <= before.height) {
      this.reorgFrom = Math.min(this.reorgFrom ?? Infinity, tip.height);
      for (const principal of this.principals) {
        if (!this.beforeReorg.has(principal))
          this.beforeReorg.set(principal, this.deps.book.get(principal)?.recent ?? []);
        // Queued before the new fork's transactions: what is mined from here on may be new.
        this.sink.forked(this.deps.node.network, principal, tip.height);
      }
      this.deps.rest.forgetValidators();
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

  private snapshot(principal: string): AddressSnapshot {
    return this.deps.book.get(principal) ?? emptySnapshot(principal, this.deps.node.network);
  }

  /** Runs an event handler; a payload that fails validation is reported and skipped, never stored. */
  private guard(topic: string, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.deps.report?.(`Ignored a malformed ${topic} event from ${this.deps.node.name}: ${describe(error)}`);
    }
  }

  private setStatus(change: Partial<MonitorStatus>): void {
    this.statusValue = { ...this.statusValue, ...change };
    this.listeners.forEach((listener) => listener());
  }
}

const receivesTokens = (activity: Activity, principal: string): boolean =>
  (activity.movements ?? []).some((movement) => movement.type !== 'stx' && movement.recipient === principal);

const describe = (error: unknown): string => (error instanceof Error ? error.message : String(error));
