import type { ChainTip } from '../chain/decode.ts';
import { DEEPEST_REORG } from '../domain/state/fork-mark.ts';

/** Blocks remembered: more than any re-org a node has been seen to make, few enough to walk back in requests. */
const TRAIL_LENGTH = DEEPEST_REORG;

/**
 * The blocks a monitor last knew at each height (the feed's block events, the node's status), so that a reconcile can
 * tell a re-org nobody announced: the feed replays nothing, and a socket that drops just after a fork (a node going
 * down) takes the new fork's block events with it. Unheard, the fork leaves what it mined at heights already synced
 * looking like history.
 */
export class BlockTrail {
  private readonly blocks = new Map<number, string>();
  /**
   * The newest height known when the feed last stopped being live: blocks announced after it went quiet may follow
   * blocks it never announced, so they prove nothing about the heights below.
   */
  private quietFrom: number | null = null;

  /**
   * A block the node announced or answered with. One at a height already known with another hash replaces it and
   * everything above (orphaned).
   */
  note(block: Pick<ChainTip, 'height' | 'indexHash'>): void {
    if (!block.indexHash) return;
    const known = this.blocks.get(block.height);
    if (known !== undefined && known !== block.indexHash)
      for (const height of [...this.blocks.keys()]) if (height >= block.height) this.blocks.delete(height);
    this.blocks.set(block.height, block.indexHash);
    const heights = [...this.blocks.keys()].sort((a, b) => a - b);
    for (const height of heights.slice(0, Math.max(0, heights.length - TRAIL_LENGTH))) this.blocks.delete(height);
  }

  /**
   * How many blocks under `height` it should learn (newest first, see `learned`): the trail knows none right under it,
   * so a re-org found later could reach below everything remembered and look shallower than it was. 0 when it knows.
   */
  missingUnder(height: number): number {
    return height > 0 && !this.blocks.has(height - 1) ? Math.min(TRAIL_LENGTH, height) : 0;
  }

  /**
   * Blocks of the chain as it stands, read from the node's newest-blocks list, added under those known. A list that
   * disagrees with a block known (a re-org between the reads) is not learned: taking it would hide that re-org from
   * the next reconcile's walk.
   */
  learned(blocks: readonly Pick<ChainTip, 'height' | 'indexHash'>[]): void {
    if (blocks.some((block) => !block.indexHash)) return;
    if (blocks.some((block) => (this.blocks.get(block.height) ?? block.indexHash) !== block.indexHash)) return;
    for (const block of [...blocks].sort((a, b) => a.height - b.height)) this.note(block);
  }

  /** The feed is not live: what it says next may come after a gap. */
  interrupted(): void {
    this.quietFrom ??= this.newest();
  }

  /**
   * The lowest height whose block the node no longer has, of those remembered as it stood before the feed went quiet,
   * or null when the newest of them still stands (or the node gives no hashes). Walks back, one request a block, until
   * a remembered block still stands: the fork begins above it.
   */
  async forkUnder(tip: ChainTip, blockAt: (height: number) => Promise<ChainTip | null>): Promise<number | null> {
    const from = Math.min(this.quietFrom ?? this.newest() ?? -1, tip.height);
    const heights = [...this.blocks.keys()].filter((height) => height <= from).sort((a, b) => b - a);
    let replaced: number | null = null;
    for (const height of heights) {
      const now = height === tip.height ? tip : await blockAt(height);
      // The node cannot say (no hash, or no block there yet on a replica behind): nothing below is known to be gone.
      if (!now?.indexHash) return replaced;
      if (now.indexHash === this.blocks.get(height)) return replaced === null ? null : height + 1;
      replaced = height;
    }
    return replaced;
  }

  /** After a reconcile read the chain at `tip`: the blocks from `forkFrom` up are gone, the tip stands. */
  reconciled(tip: ChainTip, forkFrom: number | null): void {
    if (forkFrom !== null)
      for (const height of [...this.blocks.keys()]) if (height >= forkFrom) this.blocks.delete(height);
    this.note(tip);
    this.quietFrom = null;
  }

  private newest(): number | null {
    return this.blocks.size > 0 ? Math.max(...this.blocks.keys()) : null;
  }
}
