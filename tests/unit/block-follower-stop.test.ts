import { afterEach, describe, expect, it, vi } from 'vitest';
import { BlockFollower } from '../../src/chain/block-follower.ts';

afterEach(() => vi.useRealTimers());

/** A follower polling every 100 ms whose node answers `answer` (no block: an empty newest page), and what it asked. */
function following(answer: () => unknown = () => ({ limit: 30, offset: 0, total: 0, results: [] })) {
  const asked: string[] = [];
  const follower = new BlockFollower(
    async (path) => {
      asked.push(path);
      return answer();
    },
    { block: () => {}, reorg: () => {}, pending: () => {} },
    { pollMs: 100 },
  );
  return { follower, asked };
}

describe('a stopped block follower', () => {
  it('reads nothing more when its feed goes down or comes back afterwards (as closing the feed tells it)', async () => {
    vi.useFakeTimers();
    const { follower, asked } = following(() => {
      throw new Error('the node is gone');
    });
    follower.stop();
    follower.feedDown();
    follower.feedUp();
    follower.poll();
    await vi.advanceTimersByTimeAsync(60_000);
    await follower.settled();
    expect(asked).toEqual([]);
  });

  it('reads nothing for a poll queued just before it was stopped', async () => {
    const { follower, asked } = following();
    follower.poll();
    follower.stop();
    await follower.settled();
    expect(asked).toEqual([]);
  });

  it('stops the polling it was doing while its feed was down', async () => {
    vi.useFakeTimers();
    const { follower, asked } = following();
    follower.feedDown();
    await vi.advanceTimersByTimeAsync(250);
    expect(asked.length).toBeGreaterThan(0);
    follower.stop();
    await follower.settled();
    const before = asked.length;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(asked).toHaveLength(before);
  });
});
