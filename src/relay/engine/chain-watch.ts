import { BlockFollower, type Touched } from '../../chain/block-follower.ts';
import type { ChainBlock, NodeGet } from '../../chain/chain-reads.ts';
import type { FeedHandlers, FeedState } from '../../chain/feed.ts';
import type { NodeConfig } from '../../chain/networks.ts';
import type { StacksRestClient } from '../../chain/rest-client.ts';
import type { StakingReader } from '../../chain/staking-reader.ts';
import { errorMessage } from '../../domain/error-message.ts';
import { mergeMined, supersededBy, type Activity } from '../../domain/state/snapshot.ts';
import type { AnchorPort } from '../../monitor/change-scout.ts';
import { HoldingsKeeper } from '../../monitor/holdings-keeper.ts';
import { learnNames } from '../../monitor/name-learner.ts';
import { OrderedSink } from '../../monitor/ordered-sink.ts';
import { PendingKeeper } from '../../monitor/pending-keeper.ts';
import type { ActivitySink, FeedLike, NamePort, SnapshotPort, TokenPort } from '../../monitor/ports.ts';
import { followStaking, type StakingKeeper } from '../../monitor/staking-keeper.ts';
import { tellInOrder } from '../../monitor/tell-in-order.ts';
import { takeBackOrphaned, type ReorgDeps } from './chain-reorg.ts';
import { pendingSink } from './pending-sink.ts';
import { txDecoder, type TxDecoder } from './tx-decoder.ts';

export interface ChainWatchDeps {
  readonly node: NodeConfig;
  readonly rest: StacksRestClient;
  /** The follower's reads (blocks, transactions with their events), paced by the same host scheduler as `rest`. */
  readonly get: NodeGet;
  readonly staking?: StakingReader;
  readonly book: SnapshotPort;
  readonly tokens: TokenPort;
  readonly names: NamePort;
  /** The newest block taken, stored once the snapshots it changed are: where a restart resumes. */
  readonly anchor: AnchorPort;
  readonly openFeed: (handlers: FeedHandlers) => FeedLike;
  /** Every device's alerts (the fan-out), told in the order things were learned. */
  readonly sink: ActivitySink;
  readonly report: (problem: string) => void;
  /** How often the newest blocks are polled while the feed is down. */
  readonly pollMs?: number;
  readonly now?: () => number;
}

/** How the relay's follower of one network is doing: what /health says of it. */
export interface ChainWatchStatus {
  readonly tip: { readonly height: number; readonly hash: string; readonly burnHeight: number } | null;
  readonly feed: FeedState;
  /** The last step that failed (a read, a malformed answer), until a block is taken again. */
  readonly problem: string | null;
}

/**
 * The relay's follower of one network (issue 38): it follows the chain, not its principals. Each block is read once
 * with its transactions and their events (BlockFollower), and what it means is worked out only for the watched
 * principals it touches; pending transactions come whole on the `mempool` topic, and a watched one's fate on its own
 * topic. Starting to follow a principal reads nothing of it: it is followed from the chain's tip on (its baseline).
 * Reads of one principal are left for what the words of an alert need: its tokens the first time it receives one
 * (the spam guard), its staking when a PoX transaction of its own is mined or, once it stakes, at each burn block.
 */
export class ChainWatch {
  private principals = new Set<string>();
  /** Principals added before the chain's tip was known: baselined at the first block taken. */
  private readonly unbased = new Set<string>();
  private feed: FeedLike | null = null;
  private statusValue: ChainWatchStatus = { tip: null, feed: 'connecting', problem: null };
  /** Made at start, once the stored anchor is loaded: a restart resumes from the block it names. */
  private follower: BlockFollower | null = null;
  private readonly told: OrderedSink;
  private readonly holdings: HoldingsKeeper;
  private readonly pending: PendingKeeper;
  private readonly staking: StakingKeeper | null;
  private readonly now: () => number;
  private readonly decode: TxDecoder;
  private readonly reorg: ReorgDeps;

  constructor(private readonly deps: ChainWatchDeps) {
    this.now = deps.now ?? Date.now;
    this.decode = txDecoder(deps.node.name, deps.report);
    this.told = new OrderedSink(
      deps.sink,
      deps.report,
      (principal, activities) => learnNames(deps.names, deps.rest, activities, principal),
      true,
    );
    this.holdings = new HoldingsKeeper(deps);
    this.staking = followStaking(deps, this.told);
    this.pending = new PendingKeeper({
      ...deps,
      sink: pendingSink(this.told, deps.book, this.staking, () => this.statusValue.tip?.burnHeight ?? null),
      principals: () => this.principals,
      follow: (txIds) => this.feed?.setTransactions(txIds),
    });
    this.reorg = {
      ...deps,
      told: this.told,
      staking: this.staking,
      decode: this.decode,
      followPending: () => this.pending.followAll(),
    };
  }

  get status(): ChainWatchStatus {
    return this.statusValue;
  }

  /** The newest block taken (or resumed from), null before the first. */
  tipHeight(): number | null {
    return this.follower?.tip?.height ?? null;
  }

  /** Whether the newest block the node announced is taken: what this follower knows is as new as the node's. */
  caughtUp(): boolean {
    return this.follower?.caughtUp() ?? false;
  }

  /** Reads the node's newest block and resolves once it (and everything before it) is taken and handed over. */
  async catchUp(): Promise<void> {
    this.follower?.poll();
    await this.settled();
  }

  /** The principals followed now. */
  followed(): ReadonlySet<string> {
    return this.principals;
  }

  /** Opens the feed (polling the newest blocks until it is live) and follows `principals`. */
  start(principals: readonly string[]): void {
    const anchor = this.deps.anchor.get();
    const follower = new BlockFollower(
      this.deps.get,
      {
        block: (block, touched) => this.block(block, touched),
        reorg: (heights) => takeBackOrphaned(this.reorg, this.principals, heights),
        // Pending transactions reach the pending keeper straight from the feed.
        pending: () => {},
      },
      {
        resumeFrom: anchor ? [{ height: anchor.height, hash: anchor.indexHash }] : [],
        ...(this.deps.pollMs === undefined ? {} : { pollMs: this.deps.pollMs }),
        onError: (error) => this.failed(error),
      },
    );
    this.follower = follower;
    this.follow(principals, []);
    this.feed = this.deps.openFeed({
      onState: (feed) => {
        this.statusValue = { ...this.statusValue, feed };
        if (feed !== 'live') follower.feedDown();
      },
      onConnected: () => {
        follower.feedUp();
        this.pending.followAll();
      },
      onBlock: (payload) => follower.heardBlock(payload),
      onMempool: (payload) => this.guard('mempool', () => this.pending.onMempool(payload)),
      onTransaction: (txId, payload) => this.guard('transaction', () => this.pending.onTransaction(txId, payload)),
      // No address topic is subscribed: the blocks tell everything they would.
      onAddressTransaction: () => {},
      onAddressBalance: () => {},
      onRefused: (topic) => this.deps.report(`${this.deps.node.name} refused live updates for ${topic}`),
    });
    void this.feed.setPrincipals([]);
    follower.poll();
  }

  /**
   * Follows these principals too, and these no more: what changed since the last call, at a cost that grows with the
   * change, not with every principal followed (registrations arrive by the thousand on a busy relay).
   */
  follow(added: Iterable<string>, removed: Iterable<string>): void {
    // A principal new to the relay is followed from the tip on: what the chain holds at or below it is history.
    // Nothing of it is read.
    for (const principal of removed) {
      this.principals.delete(principal);
      this.unbased.delete(principal);
    }
    const tip = this.tipHeight();
    for (const principal of added) {
      this.principals.add(principal);
      // Based already, or waiting for the first tip. One dropped and followed again within one hand-over is still in
      // the set, its snapshot forgotten with the drop: based again, from the tip.
      if ((this.deps.book.get(principal)?.syncedHeight ?? null) !== null || this.unbased.has(principal)) continue;
      if (tip === null) this.unbased.add(principal);
      else this.baseline(principal, tip);
    }
  }

  /** Resolves once everything learned so far was handed to the alerts. */
  async settled(): Promise<void> {
    await this.follower?.settled();
    await this.staking?.settled();
    await this.told.idle();
  }

  stop(): void {
    this.follower?.stop();
    this.feed?.close();
    this.feed = null;
  }

  private baseline(principal: string, height: number): void {
    const { book, node } = this.deps;
    const now = this.now();
    book.update(principal, node.network, (snapshot) => ({ ...snapshot, syncedHeight: height, syncedAt: now }));
    this.told.baseline(node.network, principal, [], height);
  }

  /**
   * A block taken: the watched principals it touches learn its transactions (in block order, with every movement),
   * pending ones it replaced are told dropped, and stakers are read again at a new burn height. Its height is stored
   * as where to resume once the snapshots it changed are.
   */
  private block(block: ChainBlock, touched: Touched): void {
    const { book, node } = this.deps;
    this.statusValue = {
      ...this.statusValue,
      tip: { height: block.height, hash: block.hash, burnHeight: block.burnHeight },
      problem: null,
    };
    // What the chain held when the tip became known predates these principals' watch.
    for (const principal of this.unbased) this.baseline(principal, block.height);
    this.unbased.clear();
    let followPending = false;
    for (const [principal, txs] of touched) {
      if (!this.principals.has(principal)) continue;
      const activities = txs.flatMap((tx) => this.decode(tx.txId, tx.raw, principal));
      if (activities.length === 0) continue;
      const before = book.get(principal);
      const superseded = supersededBy(before?.pending ?? [], activities);
      book.update(principal, node.network, (snapshot) => mergeMined(snapshot, activities));
      if ((before?.pending.length ?? 0) > 0) followPending = true;
      if (superseded.length > 0) this.told.activities(node.network, principal, superseded, 'live');
      this.tell(principal, activities);
      this.staking?.transactions(principal, activities, block.burnHeight);
      if (activities.some((activity) => activity.status === 'success' && (activity.locked ?? 0n) > 0n))
        void this.staking?.refresh(principal, block.burnHeight);
    }
    if (followPending) this.pending.followAll();
    this.staking?.burnBlock(this.principals, block.burnHeight);
    this.deps.anchor.set({ height: block.height, indexHash: block.hash });
  }

  private tell(principal: string, activities: readonly Activity[]): void {
    const tokens = activities.flatMap((activity) =>
      (activity.movements ?? [])
        .filter((movement) => movement.type === 'ft')
        .map((movement) => movement.assetIdentifier),
    );
    // Names and decimals of the tokens moved, so that the words say "292 WGOLD" (each contract read once, ever).
    if (tokens.length > 0)
      this.told.after(async () => {
        await this.holdings.learnTokens(tokens);
        return () => {};
      });
    tellInOrder({ ...this.deps, sink: this.told, holdings: this.holdings }, principal, activities, 'live');
  }

  private guard(topic: string, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.deps.report(`Ignored a malformed ${topic} event from ${this.deps.node.name}: ${errorMessage(error)}`);
    }
  }

  private failed(error: unknown): void {
    const problem = errorMessage(error);
    this.statusValue = { ...this.statusValue, problem };
    this.deps.report(`Following ${this.deps.node.name}: ${problem}`);
  }
}
