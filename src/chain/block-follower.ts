import { backoffDelay, type Backoff } from '../domain/backoff.ts';
import { principalsTouchedBy } from '../domain/chain/touched-principals.ts';
import {
  BLOCK_PAGE,
  decodeChainBlock,
  readBlockAt,
  readBlockTxIds,
  readNewestBlocks,
  readTransactions,
  type ChainBlock,
  type NodeGet,
} from './chain-reads.ts';
import { decodeChainTx, type ChainTx } from './decode-chain-tx.ts';

/** Transactions by the principals they touch, each principal's in block order. */
export type Touched = ReadonlyMap<string, readonly ChainTx[]>;

/** Where the follower reports; it waits for each call, so a block counts as taken only once its report is stored. */
export interface FollowerSink {
  block(block: ChainBlock, touched: Touched): void | Promise<void>;
  /** Blocks the follower reported that are no longer canonical, lowest first: what they told is to be taken back. */
  reorg(orphanedHeights: readonly number[]): void | Promise<void>;
  /** A transaction heard in the mempool for the first time, with the principals it touches. */
  pending(tx: ChainTx, touched: readonly string[]): void | Promise<void>;
}

export interface FollowerOptions {
  /** Heights whose hashes are kept to recognise a re-org (the devnet keeps 64 blocks of history to fork). */
  readonly keptBlocks?: number;
  /** How often the newest blocks are polled while the feed is down. */
  readonly pollMs?: number;
  /**
   * A step that failed (the node away, a malformed answer). The newest blocks are read again after `retry`'s wait
   * (doubling, jittered), or sooner by the next block or poll, until a read succeeds.
   */
  readonly onError?: (error: unknown) => void;
  /** The wait before the newest blocks are read again after a failed step: 1 s, doubling to 30 s, by default. */
  readonly retry?: Backoff;
  readonly random?: () => number;
  /**
   * The blocks taken before (`recent()` of an earlier run, as stored): a restarted follower reads what it missed by
   * height from there, and recognises a re-org of blocks it took before it stopped.
   */
  readonly resumeFrom?: readonly TakenBlock[];
}

export interface TakenBlock {
  readonly height: number;
  readonly hash: string;
}

const SEEN_PENDING = 10_000;
const RETRY: Backoff = { firstMs: 1_000, maxMs: 30_000 };

/**
 * Follows a chain once per block, whatever the number of principals watched (issue 38): each new block (from the
 * `block` topic, or a poll of the newest blocks while the feed is down) is read once with its transactions and their
 * events, and every principal they touch is reported. A block whose parent is not the tip walks back to the fork
 * and reports the orphaned heights; blocks missed during an outage are read by height, so catching up costs the
 * blocks missed, never the principals.
 */
export class BlockFollower {
  private readonly hashes = new Map<number, string>();
  private tipHeight: number | null = null;
  /** The newest block the node announced (its `block` event, or a poll), taken or not. */
  private announced: number | null = null;
  private queue: Promise<void> = Promise.resolve();
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private pollQueued = false;
  /** A read again after a failed step, while one is due; the steps failed in a row. */
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private failures = 0;
  private stopped = false;
  private readonly seenPending = new Set<string>();
  private readonly keptBlocks: number;
  private readonly pollMs: number;

  constructor(
    private readonly get: NodeGet,
    private readonly sink: FollowerSink,
    private readonly options: FollowerOptions = {},
  ) {
    this.keptBlocks = options.keptBlocks ?? 64;
    this.pollMs = options.pollMs ?? 10_000;
    for (const { height, hash } of (options.resumeFrom ?? []).slice(-this.keptBlocks)) {
      this.hashes.set(height, hash);
      this.tipHeight = Math.max(this.tipHeight ?? height, height);
    }
  }

  /** The blocks taken whose hashes are kept, lowest first: what to store for a restart (`resumeFrom`). */
  recent(): TakenBlock[] {
    return [...this.hashes].sort(([a], [b]) => a - b).map(([height, hash]) => ({ height, hash }));
  }

  /** The newest block taken, or null before the first. */
  get tip(): { height: number; hash: string } | null {
    return this.tipHeight === null ? null : { height: this.tipHeight, hash: this.hashes.get(this.tipHeight)! };
  }

  /** Whether the newest block the node announced is taken (false before the node said anything). */
  caughtUp(): boolean {
    return this.announced !== null && this.tipHeight !== null && this.tipHeight >= this.announced;
  }

  /** The `block` topic's payload. */
  heardBlock(payload: unknown): void {
    this.enqueue(() => {
      const block = decodeChainBlock(payload);
      this.announced = Math.max(this.announced ?? block.height, block.height);
      return this.take(block);
    });
  }

  /** The `mempool` topic's payload: reported once per transaction (the node re-sends it when it is mined). */
  heardMempool(payload: unknown): void {
    void (async () => {
      const tx = decodeChainTx({ value: payload, path: '$' });
      if (this.seenPending.has(tx.txId)) return;
      this.seenPending.add(tx.txId);
      if (this.seenPending.size > SEEN_PENDING) this.seenPending.delete(this.seenPending.values().next().value!);
      await this.sink.pending(tx, principalsTouchedBy(tx.touching));
    })().catch((error: unknown) => this.options.onError?.(error));
  }

  /** The feed is down: poll the newest blocks until it is back. */
  feedDown(): void {
    if (this.stopped || this.pollTimer !== null) return;
    this.pollTimer = setInterval(() => this.poll(), this.pollMs);
  }

  /** The feed is (re)connected: nothing is replayed, so read what was missed once, then follow the events. */
  feedUp(): void {
    if (this.pollTimer !== null) clearInterval(this.pollTimer);
    this.pollTimer = null;
    this.poll();
  }

  /** Reads the newest blocks and takes any the follower has not (one request when nothing is new). */
  poll(): void {
    if (this.stopped || this.pollQueued) return;
    this.pollQueued = true;
    this.enqueue(async () => {
      this.pollQueued = false;
      const newest = await readNewestBlocks(this.get);
      const head = newest[0];
      if (head) this.announced = Math.max(this.announced ?? head.height, head.height);
      if (head && this.hashes.get(head.height) !== head.hash) await this.take(head, listed(newest));
    });
  }

  /** Resolves once every step queued so far has run (tests, a graceful stop). */
  settled(): Promise<void> {
    return this.queue;
  }

  /**
   * For good: a feed that goes down or comes back after this (its own close), a block heard, a step queued before it,
   * start no read; a catch-up under way stops at its next page.
   */
  stop(): void {
    this.stopped = true;
    if (this.pollTimer !== null) clearInterval(this.pollTimer);
    this.pollTimer = null;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /**
   * Runs `step` after the steps queued before it. One that fails leaves the follower behind what the node announced
   * (a block read half-way, a transaction the node did not answer for): the newest blocks are read again after a
   * wait, whether or not another block comes, so that a quiet chain does not keep the last block's alerts waiting.
   */
  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue
      // Stopped meanwhile: a block heard or a poll queued before stop() reads nothing.
      .then(() => (this.stopped ? undefined : step()))
      .then(() => {
        this.failures = 0;
      })
      .catch((error: unknown) => {
        this.failures += 1;
        this.options.onError?.(error);
        this.readAgainLater();
      });
  }

  private readAgainLater(): void {
    if (this.stopped || this.retryTimer !== null) return;
    const wait = backoffDelay(this.options.retry ?? RETRY, this.failures, this.options.random);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.poll();
    }, wait);
  }

  /** Takes a block announced as the node's newest, first catching up on or re-orging to what leads to it. */
  private async take(block: ChainBlock, known = new Map<number, ChainBlock>()): Promise<void> {
    if (this.hashes.get(block.height) === block.hash) return;
    if (this.tipHeight !== null && block.height > this.tipHeight + 1) {
      await this.catchUp(this.tipHeight + 1, block.height - 1, block.height, known);
    }
    await this.takeNext(block);
  }

  /** Takes a block whose height is at most one above the tip, re-orging first when it does not build on the tip. */
  private async takeNext(block: ChainBlock, prefetched?: ReadonlyMap<string, ChainTx>): Promise<void> {
    if (this.hashes.get(block.height) === block.hash) return;
    const parent = this.hashes.get(block.height - 1);
    if (parent !== undefined && parent !== block.parentHash) {
      const fork = await this.forkPoint(block.height - 1);
      await this.orphanAbove(fork);
      await this.catchUp(fork + 1, block.height - 1, block.height, new Map());
    } else if (this.tipHeight !== null && block.height <= this.tipHeight) {
      // A new block at a height already taken: a re-org, unless the announcement is stale (checked, rarely paid).
      if ((await readBlockAt(this.get, block.height))?.hash !== block.hash) return;
      await this.orphanAbove(block.height - 1);
    }
    await this.apply(block, prefetched);
  }

  /** The highest kept height whose block is still canonical (one read per height walked back). */
  private async forkPoint(from: number): Promise<number> {
    let height = from;
    while (this.hashes.has(height)) {
      const canonical = await readBlockAt(this.get, height);
      if (canonical?.hash === this.hashes.get(height)) return height;
      height -= 1;
    }
    return height;
  }

  private async orphanAbove(height: number): Promise<void> {
    const orphaned = [...this.hashes.keys()].filter((kept) => kept > height).sort((a, b) => a - b);
    if (orphaned.length === 0) return;
    await this.sink.reorg(orphaned);
    for (const kept of orphaned) this.hashes.delete(kept);
    this.tipHeight = this.hashes.has(height) ? height : null;
  }

  /**
   * The canonical blocks `from`..`to` (the node's tip at `tipHeight`), 30 at a time: their list in one request, the
   * ids of each block with transactions in one more, all their transactions together.
   */
  private async catchUp(from: number, to: number, tipHeight: number, known: Map<number, ChainBlock>): Promise<void> {
    for (let low = from; low <= to && !this.stopped; low += BLOCK_PAGE) {
      const high = Math.min(to, low + BLOCK_PAGE - 1);
      if (!known.has(low) || !known.has(high)) {
        for (const block of await readNewestBlocks(this.get, Math.max(0, tipHeight - high)))
          known.set(block.height, block);
      }
      const blocks: ChainBlock[] = [];
      for (let height = low; height <= high; height++) {
        const block = known.get(height) ?? (await readBlockAt(this.get, height));
        if (!block) throw new Error(`the node has no block at height ${height}`);
        const txIds = block.txIds ?? (block.txCount > 0 ? await readBlockTxIds(this.get, height) : []);
        blocks.push({ ...block, txIds });
      }
      const txs = await readTransactions(
        this.get,
        blocks.flatMap((block) => block.txIds ?? []),
      );
      for (const block of blocks) await this.takeNext(block, txs);
    }
  }

  private async apply(block: ChainBlock, prefetched?: ReadonlyMap<string, ChainTx>): Promise<void> {
    const ids = block.txIds ?? (block.txCount > 0 ? await readBlockTxIds(this.get, block.height) : []);
    const missing = ids.filter((id) => prefetched?.get(id)?.blockHash !== block.hash);
    const read = missing.length > 0 ? await readTransactions(this.get, missing) : new Map<string, ChainTx>();
    const touched = new Map<string, ChainTx[]>();
    for (const id of ids) {
      const tx = prefetched?.get(id)?.blockHash === block.hash ? prefetched.get(id) : read.get(id);
      // A transaction the node no longer has in this block means the block was orphaned meanwhile: leave the block
      // untaken; the next block or poll reads the canonical one.
      if (!tx || tx.blockHash !== block.hash)
        throw new Error(`transaction ${id} is no longer in block ${block.height} (${block.hash})`);
      for (const principal of principalsTouchedBy(tx.touching)) {
        const list = touched.get(principal);
        if (list) list.push(tx);
        else touched.set(principal, [tx]);
      }
    }
    await this.sink.block({ ...block, txIds: ids }, touched);
    this.hashes.set(block.height, block.hash);
    this.tipHeight = block.height;
    this.hashes.delete(block.height - this.keptBlocks);
  }
}

const listed = (blocks: readonly ChainBlock[]) => new Map(blocks.map((block) => [block.height, block]));
