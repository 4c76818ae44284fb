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
      128,
    );
    const ns = Array.from({ length: 300 }, (_, n) => n);
    expect(await handOver(lane, ns)).toEqual(ns.map((n) => n * 10));
    expect(batches.map((batch) => batch.length)).toEqual([128, 128, 44]);
    expect(batches.flat()).toEqual(ns);
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
