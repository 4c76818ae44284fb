import type { ChainTip } from '../chain/decode.ts';
import type { NodeConfig } from '../chain/networks.ts';
import type { StacksRestClient } from '../chain/rest-client.ts';
import { errorMessage } from '../domain/error-message.ts';
import type { StxBalance } from '../domain/state/snapshot.ts';
import { troubleWords } from '../domain/text/node-trouble.ts';
import { planReconcile, type AnchorPort } from './change-scout.ts';
import type { HistorySync } from './history-sync.ts';
import type { MonitorStatus } from './monitor-status.ts';
import type { PendingKeeper } from './pending-keeper.ts';
import type { SnapshotPort } from './ports.ts';
import type { ReorgTracker } from './reorg-tracker.ts';
import type { RetryPacer } from './retry-pacer.ts';
import type { StakingKeeper } from './staking-keeper.ts';

export interface ReconcilerDeps {
  readonly node: NodeConfig;
  readonly rest: StacksRestClient;
  readonly book: SnapshotPort;
  readonly report?: (problem: string) => void;
  readonly restPollMs?: number;
  readonly now: () => number;
  readonly anchors: AnchorPort;
  readonly history: HistorySync;
  readonly pending: PendingKeeper;
  readonly reorg: ReorgTracker;
  readonly retry: RetryPacer;
  readonly stakingKeeper: StakingKeeper | null;
  /** The principals watched now. */
  readonly principals: () => ReadonlySet<string>;
  readonly status: () => MonitorStatus;
  readonly setStatus: (change: Partial<MonitorStatus>) => void;
  /** A failed sync is tried again after a growing wait (while the feed is open). */
  readonly retryLater: () => void;
  /** The balance read: the alerts judge a lock change, and a staker's position is read again. */
  readonly balance: (principal: string, before: StxBalance | null, after: StxBalance) => void;
}

/**
 * A monitor's REST side: the reconcile of every watched principal (on every (re)connect, every so often while the
 * feed is not live, when a failed one is tried again), and each principal's syncs and balance reads, one at a time.
 */
export class Reconciler {
  private reconciling: Promise<void> | null = null;
  /** A reconnect during a reconcile: its requests may predate what was missed, so another one is owed. */
  private reconcileAgain = false;
  private feedlessTimer: ReturnType<typeof setTimeout> | null = null;
  /** The sync of each principal in flight: the next one waits for it. */
  private readonly syncs = new Map<string, Promise<void>>();
  /** Blocks the feed told since the monitor started. */
  private blocksHeard = 0;
  /** Principals whose balance read after an unlock waits its turn. */
  private readonly unlockReads = new Set<string>();
  /** The tip's height at which each principal's balance was last read for its unlock. */
  private readonly unlockAskedAt = new Map<string, number>();

  constructor(private readonly deps: ReconcilerDeps) {}

  /** The node's host as people read it in an address bar. */
  private get host(): string {
    return new URL(this.deps.node.url).host;
  }

  /** Whether a reconcile is under way. */
  get underWay(): boolean {
    return this.reconciling !== null;
  }

  /** Keeps the snapshots current over REST while the feed is not live; the feed's reconnect takes over again. */
  scheduleFeedlessSync(delayMs: number): void {
    this.feedlessTimer = setTimeout(() => {
      // A failed sync waiting to be tried again owns the next try: the node is not asked meanwhile.
      if (this.deps.status().feed !== 'live' && !this.deps.retry.waiting) void this.reconcile();
      this.scheduleFeedlessSync(this.deps.restPollMs ?? 60_000);
    }, delayMs);
  }

  stop(): void {
    if (this.feedlessTimer) clearTimeout(this.feedlessTimer);
    this.feedlessTimer = null;
  }

  /** Chain tip, every principal's history since its newest known transaction and balance, then the mempool. */
  reconcile(): Promise<void> {
    if (this.reconciling) {
      this.reconcileAgain = true;
      return this.reconciling;
    }
    this.reconciling = (async () => {
      this.deps.setStatus({ syncing: true });
      try {
        const heardBefore = this.blocksHeard;
        const tip = await this.deps.rest.status();
        // A re-org whose blocks the feed never announced (it was down): what the new fork mined at heights already
        // synced is no history.
        const unheard = await this.deps.reorg.trail.forkUnder(tip, (height) => this.deps.rest.blockAt(height));
        if (unheard !== null) this.deps.reorg.forked(unheard, this.deps.principals());
        this.deps.reorg.trail.reconciled(tip, unheard);
        await this.deps.reorg.learnBlocksUnder(tip, (limit) => this.deps.rest.recentBlocks(limit));
        const reorgFrom = this.deps.reorg.from;
        // A fork found under it: the node's tip is the truth, whatever the feed (on the orphaned fork) told meanwhile.
        this.keepTip(tip, unheard === null ? heardBefore : this.blocksHeard);
        // Block events missed while the feed was away: what accrued meanwhile is read here.
        this.deps.stakingKeeper?.reconciled(this.deps.principals(), tip.burnHeight);
        const { due, untouched } = await planReconcile({
          principals: [...this.deps.principals()],
          known: (principal) => this.deps.book.get(principal),
          midCatchUp: (principal) => this.deps.history.midCatchUp(principal),
          anchor: reorgFrom === null ? this.deps.anchors.get() : null,
          tip,
          rest: this.deps.rest,
        });
        this.markFresh(untouched, tip.height);
        const synced = await this.syncAll(due);
        if (synced && this.deps.reorg.readPast(reorgFrom) && reorgFrom === null && tip.indexHash)
          this.deps.anchors.set({ height: tip.height, indexHash: tip.indexHash });
        await this.deps.pending.sync();
        // The trouble is over once the whole round went through, not at the first answer: a node that tells its tip
        // but fails the addresses would flip from "unreachable" to "connecting" and back at every try, and its
        // trouble would be dated anew each time.
        if (synced) {
          this.deps.setStatus({ problem: null });
          this.deps.retry.reset();
        }
      } catch (error) {
        this.deps.setStatus({ problem: troubleWords(error, this.host) });
        this.deps.retryLater();
      } finally {
        this.deps.setStatus({ syncing: false });
        this.reconciling = null;
        if (this.reconcileAgain) {
          this.reconcileAgain = false;
          void this.reconcile();
        }
      }
    })();
    return this.reconciling;
  }

  /** The feed told a block (see keepTip). */
  heardBlock(): void {
    this.blocksHeard += 1;
  }

  /** The node's tip, read over REST and kept as the known tip (see keepTip). */
  async readTip(): Promise<void> {
    const heardBefore = this.blocksHeard;
    this.keepTip(await this.deps.rest.status(), heardBefore);
  }

  /**
   * A tip the node answered over REST, asked when `heardBefore` blocks were heard: kept unless the feed told a higher
   * block since. The answer is then older than what is known: it would take the burn height back (a lock that ran
   * out would look not yet run out, and not be read until another block came).
   */
  private keepTip(tip: ChainTip, heardBefore: number): void {
    const known = this.deps.status().tip;
    if (this.blocksHeard !== heardBefore && known !== null && known.height > tip.height) return;
    this.deps.setStatus({ tip });
  }

  /** Principals the chain has not touched since their last sync are as fresh as a read would make them. */
  private markFresh(principals: readonly string[], height: number): void {
    for (const principal of principals)
      this.deps.book.update(principal, this.deps.node.network, (snapshot) => ({
        ...snapshot,
        syncedAt: this.deps.now(),
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
    this.deps.setStatus({ problem });
    this.deps.report?.(problem);
    this.deps.retryLater();
    return false;
  }

  /** One request when nothing changed; two on a first sync (history page and balance); more only to catch up. */
  async syncPrincipal(principal: string): Promise<void> {
    // One sync of a principal at a time: two at once would read the same pages, and the second, answered 304 under
    // the first's ETag, would claim a history read that the first may yet fail to merge.
    await this.inTurn(principal, () => this.deps.history.sync(principal));
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
   * only the balance is read then (one request; the history has not changed), after what is under way for the
   * principal, and once per block while the node still tells the lock (its index may lag a block). Called at each
   * block and after each balance learned: a read answered before the tip passed the unlock height is read again.
   */
  async readIfUnlocked(principal: string): Promise<void> {
    if (!this.unlockDue(principal) || this.unlockReads.has(principal)) return;
    this.unlockReads.add(principal);
    await this.inTurn(principal, async () => {
      this.unlockReads.delete(principal);
      // What was under way may have read it at this block already.
      const height = this.unlockDue(principal);
      if (height === null) return;
      this.unlockAskedAt.set(principal, height);
      const before = this.deps.book.get(principal)?.stx ?? null;
      const stx = await this.deps.rest.stxBalance(principal);
      // A balance the feed told while this one was asked for may be newer: it stands (and was told).
      if ((this.deps.book.get(principal)?.stx ?? null) !== before) return;
      this.deps.book.update(principal, this.deps.node.network, (snapshot) => ({ ...snapshot, stx }));
      this.deps.balance(principal, before, stx);
    }).catch((error: unknown) => {
      this.deps.report?.(
        `Could not read the balance of ${principal} after its stacking unlock: ${errorMessage(error)}`,
      );
      this.deps.retryLater();
    });
  }

  /** The tip's height when the principal's known lock has run out at its burn height and was not read at it; else null. */
  private unlockDue(principal: string): number | null {
    const stx = this.deps.book.get(principal)?.stx;
    const tip = this.deps.status().tip;
    if (!stx || stx.locked === 0n || stx.unlockBurnHeight == null || !tip || tip.burnHeight < stx.unlockBurnHeight)
      return null;
    return (this.unlockAskedAt.get(principal) ?? -1) < tip.height ? tip.height : null;
  }
}
