import { describe, expect, it } from 'vitest';
import { GroupCommit, type Handed } from '../../src/relay/storage/group-commit.ts';

interface Job extends Handed<number> {
  readonly n: number;
}

/** Hands over a job for each number in one turn; resolves to what each was told. */
const handOver = (lane: GroupCommit<Job, number, void>, ns: readonly number[]) =>
  Promise.all(ns.map((n) => new Promise<number>((done, failed) => lane.add({ n, done, failed }))));

describe('group commit', () => {
  it('writes what is handed over in one turn together, at most maxBatch a batch, in order, one batch at a time', async () => {
    const batches: number[][] = [];
    let writing = 0;
    const lane = new GroupCommit<Job, number, void>(
      async (batch) => {
        expect(writing).toBe(0);
        writing += 1;
        await new Promise((resolve) => setImmediate(resolve));
        batches.push(batch.map((job) => job.n));
        writing -= 1;
      },
      (batch) => batch.forEach((job) => job.done(job.n * 10)),
      { maxBatch: 128 },
    );
    const ns = Array.from({ length: 300 }, (_, n) => n);
    expect(await handOver(lane, ns)).toEqual(ns.map((n) => n * 10));
    expect(batches.map((batch) => batch.length)).toEqual([128, 128, 44]);
    expect(batches.flat()).toEqual(ns);
    await lane.idle();
    expect(lane.busy).toBe(false);
  });

  it("writes up to `parallel` batches at once, urgent requests first, each writer's requests in its order", async () => {
    interface Owned extends Job {
      readonly writer: string;
      readonly urgent: boolean;
    }
    const batches: Owned[][] = [];
    let writing = 0;
    let mostAtOnce = 0;
    const release: (() => void)[] = [];
    const lane = new GroupCommit<Owned, number, void>(
      async (batch) => {
        writing += 1;
        mostAtOnce = Math.max(mostAtOnce, writing);
        batches.push([...batch]);
        await new Promise<void>((resolve) => release.push(resolve));
        writing -= 1;
      },
      (batch) => batch.forEach((job) => job.done(job.n)),
      { maxBatch: 2, parallel: 2, writerOf: (job) => job.writer, urgent: (job) => job.urgent },
    );
    const hand = (n: number, writer: string, urgent = false) =>
      new Promise<number>((done, failed) => lane.add({ n, writer, urgent, done, failed }));
    // a1 is being written when a2 and a3 arrive: they wait for it, though a3 is urgent; b1 and c1 go meanwhile.
    const told = [hand(1, 'a')];
    await new Promise((resolve) => setImmediate(resolve));
    told.push(hand(2, 'a'), hand(3, 'a', true), hand(4, 'b'), hand(5, 'c', true), hand(6, 'd'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches.map((batch) => batch.map((job) => job.n))).toEqual([[1], [5, 4]]);
    expect(lane.busy).toBe(true);
    while (release.length > 0 || lane.busy) {
      release.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(told)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(mostAtOnce).toBe(2);
    const order = batches.flat().map((job) => job.n);
    // Each writer's requests in the order handed over; every request written once.
    expect(order.filter((n) => n <= 3)).toEqual([1, 2, 3]);
    expect([...order].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    await lane.idle();
  });

  it('beside a batch under way, starts another only for urgent requests: the others gather for the next', async () => {
    const batches: number[][] = [];
    const release: (() => void)[] = [];
    const lane = new GroupCommit<Job & { urgent: boolean }, number, void>(
      async (batch) => {
        batches.push(batch.map((job) => job.n));
        await new Promise<void>((resolve) => release.push(resolve));
      },
      (batch) => batch.forEach((job) => job.done(job.n)),
      { parallel: 3, urgent: (job) => job.urgent },
    );
    const hand = (n: number, urgent = false) =>
      new Promise<number>((done, failed) => lane.add({ n, urgent, done, failed }));
    const told = [hand(1)];
    await new Promise((resolve) => setImmediate(resolve));
    told.push(hand(2), hand(3));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    told.push(hand(4, true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1], [4, 2, 3]]);
    while (release.length > 0) release.shift()!();
    expect(await Promise.all(told)).toEqual([1, 2, 3, 4]);
    await lane.idle();
    expect(lane.busy).toBe(false);
  });

  it('tries a failed batch again one job at a time: only the failing job fails', async () => {
    const lane = new GroupCommit<Job, number, void>(
      async (batch) => {
        if (batch.some((job) => job.n === 2)) throw new Error('job 2 cannot be written');
      },
      (batch) => batch.forEach((job) => job.done(job.n)),
    );
    const told = await Promise.allSettled(
      [1, 2, 3].map((n) => new Promise<number>((done, failed) => lane.add({ n, done, failed }))),
    );
    expect(told.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
