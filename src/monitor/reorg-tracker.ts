import type { ChainTip } from '../chain/decode.ts';
import type { Network } from '../domain/network.ts';
import { markForked } from '../domain/state/fork-mark.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { BlockTrail } from './block-trail.ts';
import type { ActivitySink, SnapshotPort } from './ports.ts';

/**
 * A re-org as the monitor follows it until a reconcile has read past it: the lowest height the chain forked from,
 * and what each principal's history held when the fork was announced, before the new fork's events arrive (they can
 * push the orphaned transactions out of the bounded history before the reconcile looks for them).
 */
export class ReorgTracker {
  /** The lowest height a block was announced at again: syncs read below it until one completes. */
  from: number | null = null;
  private readonly before = new Map<string, readonly Activity[]>();
  /** The blocks last known, to tell at a reconcile a re-org the feed never announced. */
  readonly trail = new BlockTrail();

  constructor(
    private readonly network: Network,
    private readonly book: SnapshotPort,
    private readonly sink: ActivitySink,
    /** Pages read under an ETag may predate the fork: forgotten, so the node answers them again in full. */
    private readonly forgetValidators: () => void,
  ) {}

  /** The chain re-organised from `height` up: syncs read below it, and what is mined from there on may be new. */
  forked(height: number, principals: Iterable<string>): void {
    this.from = Math.min(this.from ?? Infinity, height);
    for (const principal of principals) {
      const known = this.book.get(principal);
      if (!this.before.has(principal)) this.before.set(principal, known?.recent ?? []);
      // Stored with the new fork's transactions, so the alerts can judge them again after a restart.
      if (known) this.book.update(principal, this.network, (snapshot) => markForked(snapshot, height));
      // Queued before the new fork's transactions: what is mined from here on may be new.
      this.sink.forked(this.network, principal, height);
    }
    this.forgetValidators();
  }

  /**
   * The blocks under a tip the trail knows nothing below (the first reconcile, or one after the feed missed blocks),
   * in one request: a re-org found at a later reconcile is then measured to its real depth, not to the oldest block
   * remembered (a shallower fork would leave what the new fork mined under it looking like history). A node without
   * the list, or a failed read, leaves the trail as it was: the next reconcile tries again.
   */
  async learnBlocksUnder(tip: ChainTip, recentBlocks: (limit: number) => Promise<ChainTip[]>): Promise<void> {
    const missing = this.trail.missingUnder(tip.height);
    if (missing === 0) return;
    const blocks = await recentBlocks(missing + 1).catch(() => []);
    this.trail.learned(blocks.filter((block) => block.height <= tip.height));
  }

  /** The transactions a principal was known to have, now and when the fork was announced: each once. */
  knownBefore(principal: string, recent: readonly Activity[]): Activity[] {
    return [...recent, ...(this.before.get(principal) ?? [])].filter(
      (activity, index, all) => all.findIndex((other) => other.txId === activity.txId) === index,
    );
  }

  /** A reconcile that began at `from` read every principal whole: the re-org is behind, unless another came since. */
  readPast(from: number | null): boolean {
    if (this.from !== from) return false;
    this.from = null;
    this.before.clear();
    return true;
  }
}
