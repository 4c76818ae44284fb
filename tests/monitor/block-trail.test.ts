import { describe, expect, it } from 'vitest';
import type { ChainTip } from '../../src/chain/decode.ts';
import { BlockTrail } from '../../src/monitor/block-trail.ts';

const hash = (fork: string, height: number) => `0x${fork.repeat(2)}${height.toString(16).padStart(62, '0')}`;
const block = (height: number, fork = 'aa'): ChainTip => ({
  height,
  burnHeight: 100 + height,
  indexHash: hash(fork, height),
});

/** A node whose chain is fork `aa` up to `forkFrom - 1`, then fork `bb`; counts the blocks asked for. */
function node(forkFrom: number) {
  const asked: number[] = [];
  return {
    asked,
    blockAt: (height: number) => {
      asked.push(height);
      return Promise.resolve(block(height, height >= forkFrom ? 'bb' : 'aa'));
    },
  };
}

describe('the block trail', () => {
  it('finds no fork where the newest block known still stands, at one request', async () => {
    const trail = new BlockTrail();
    [4, 5, 6, 7].forEach((height) => trail.note(block(height)));
    const { asked, blockAt } = node(99);
    expect(await trail.forkUnder(block(9), blockAt)).toBeNull();
    expect(asked).toEqual([7]);
  });

  it('walks back to the newest block still standing: the fork begins above it', async () => {
    const trail = new BlockTrail();
    [4, 5, 6, 7].forEach((height) => trail.note(block(height)));
    const { asked, blockAt } = node(6);
    expect(await trail.forkUnder(block(9, 'bb'), blockAt)).toBe(6);
    expect(asked).toEqual([7, 6, 5]);
  });

  it('compares the tip itself when it is at the newest height known', async () => {
    const trail = new BlockTrail();
    [4, 5].forEach((height) => trail.note(block(height)));
    const { asked, blockAt } = node(5);
    expect(await trail.forkUnder(block(5, 'bb'), blockAt)).toBe(5);
    expect(asked).toEqual([4]);
  });

  it('takes blocks announced after the feed went quiet for no proof of those below', async () => {
    const trail = new BlockTrail();
    [6, 7].forEach((height) => trail.note(block(height)));
    trail.interrupted();
    // Back, the feed announces the new fork's next block before the reconcile looks.
    trail.note(block(10, 'bb'));
    const { blockAt } = node(7);
    expect(await trail.forkUnder(block(10, 'bb'), blockAt)).toBe(7);
    trail.reconciled(block(10, 'bb'), 7);
    expect(await trail.forkUnder(block(10, 'bb'), node(7).blockAt)).toBeNull();
  });

  it('forgets what a block announced again at a known height orphaned', async () => {
    const trail = new BlockTrail();
    [5, 6, 7].forEach((height) => trail.note(block(height)));
    trail.note(block(6, 'bb'));
    const { asked, blockAt } = node(6);
    expect(await trail.forkUnder(block(8, 'bb'), blockAt)).toBeNull();
    expect(asked).toEqual([6]);
  });

  it('learns the blocks under a tip it knows nothing below, so a fork reaching under that tip is measured whole', async () => {
    const trail = new BlockTrail();
    trail.reconciled(block(21), null);
    expect(trail.missingUnder(21)).toBe(16);
    // Without them, a fork from 20 found later reads as one from 21: block 20's new transactions look like history.
    const alone = new BlockTrail();
    alone.reconciled(block(21), null);
    expect(await alone.forkUnder(block(23, 'bb'), node(20).blockAt)).toBe(21);
    trail.learned([21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6].map((height) => block(height)));
    expect(trail.missingUnder(21)).toBe(0);
    expect(await trail.forkUnder(block(23, 'bb'), node(20).blockAt)).toBe(20);
  });

  it('learns nothing from a list of another fork than the blocks it knows (a re-org between the two reads)', async () => {
    const trail = new BlockTrail();
    trail.reconciled(block(21), null);
    trail.learned([21, 20, 19].map((height) => block(height, 'bb')));
    expect(trail.missingUnder(21)).toBe(16);
    // The re-org stays for the next reconcile's walk to find.
    expect(await trail.forkUnder(block(22, 'bb'), node(19).blockAt)).toBe(21);
  });

  it('cannot tell without hashes', async () => {
    const trail = new BlockTrail();
    trail.note({ height: 5 });
    trail.note(block(6));
    expect(await trail.forkUnder({ height: 6, burnHeight: 106 }, node(1).blockAt)).toBeNull();
  });
});
