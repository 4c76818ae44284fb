/** One writer's request: what to write, and whom to tell when it is stored (or failed). */
export interface Handed<Result> {
  readonly done: (result: Result) => void;
  readonly failed: (error: unknown) => void;
}

export interface LaneOptions<Job> {
  /** Requests a batch, at most. */
  readonly maxBatch?: number;
  /** Batches written at once, each in a transaction of its own (1: one after the other). */
  readonly parallel?: number;
  /**
   * Whose request it is (a device): a request waits while a batch with one of the same writer's is written, and
   * never overtakes an earlier one of that writer, so each writer's requests land in the order it handed them over.
   * Left out, every request is its own writer's.
   */
  readonly writerOf?: (job: Job) => string;
  /** Requests that go into the next batch ahead of the others (those a push waits on). */
  readonly urgent?: (job: Job) => boolean;
}

/**
 * Group commit: whatever is handed over in one turn of the event loop, or while the batches before it are written,
 * is written together (up to `maxBatch` requests a batch). With `parallel` 1 (the default) one batch is written at a
 * time, in the order handed over. With more, urgent requests do not wait for the batches under way: a block's
 * confirmations for thousands of devices go in a few transactions side by side instead of one after another, while
 * each writer's requests still land in order (`writerOf`). A batch that fails is tried again one request at a
 * time, so one writer's trouble is not everyone's.
 */
export class GroupCommit<Job extends Handed<Result>, Result, Written> {
  private jobs: Job[] = [];
  /** Waiting for the turn's hand-overs to gather. */
  private gathering: Promise<void> | null = null;
  private readonly writing = new Set<Promise<void>>();
  /** Writers with a request in a batch being written, and how many. */
  private readonly inBatch = new Map<unknown, number>();
  private readonly maxBatch: number;
  private readonly parallel: number;

  constructor(
    /** Writes the batch (in one transaction: all of it, or none). */
    private readonly commit: (batch: readonly Job[]) => Promise<Written>,
    /** The batch is stored: tells each job. */
    private readonly written: (batch: readonly Job[], result: Written) => void,
    private readonly options: LaneOptions<Job> = {},
  ) {
    this.maxBatch = options.maxBatch ?? Infinity;
    this.parallel = Math.max(1, options.parallel ?? 1);
  }

  get busy(): boolean {
    return this.gathering !== null || this.writing.size > 0;
  }

  add(job: Job): void {
    this.jobs.push(job);
    // One turn of the event loop gathers what every device hands over for the same block.
    this.gathering ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      this.gathering = null;
      this.pump();
    });
  }

  /** Resolves once everything handed over so far is written (or has failed). */
  async idle(): Promise<void> {
    while (this.busy) await Promise.all([this.gathering, ...this.writing]);
  }

  /**
   * Starts batches while a transaction is free and requests can go. Beside a batch under way, another starts only for
   * urgent requests (filled up with others): the rest gather into larger batches, as with one transaction at a time,
   * instead of going a few at a time in many small transactions whose every round trip costs as much.
   */
  private pump(): void {
    while (this.writing.size < this.parallel && this.jobs.length > 0) {
      const batch = this.nextBatch(this.writing.size > 0);
      if (batch.length === 0) return;
      const writers = batch.map((job) => this.writerOf(job));
      for (const writer of writers) this.inBatch.set(writer, (this.inBatch.get(writer) ?? 0) + 1);
      const writing: Promise<void> = this.write(batch).finally(() => {
        this.writing.delete(writing);
        for (const writer of writers) {
          const left = this.inBatch.get(writer)! - 1;
          if (left > 0) this.inBatch.set(writer, left);
          else this.inBatch.delete(writer);
        }
        this.pump();
      });
      this.writing.add(writing);
    }
  }

  /**
   * Up to `maxBatch` requests that may be written now, urgent ones first (none unless one is, if `onlyForUrgent`); a
   * request whose writer has one being written, or an earlier one left waiting, waits too.
   */
  private nextBatch(onlyForUrgent: boolean): Job[] {
    const { urgent } = this.options;
    if (this.parallel === 1 && !urgent) return this.jobs.splice(0, this.maxBatch);
    if (onlyForUrgent && !urgent) return [];
    const taken = new Set<Job>();
    const take = (only: ((job: Job) => boolean) | undefined) => {
      const held = new Set<unknown>();
      for (const job of this.jobs) {
        if (taken.size >= this.maxBatch) return;
        if (taken.has(job)) continue;
        const writer = this.writerOf(job);
        if (this.inBatch.has(writer) || held.has(writer) || (only && !only(job))) held.add(writer);
        else taken.add(job);
      }
    };
    if (urgent) take(urgent);
    if (onlyForUrgent && taken.size === 0) return [];
    take(undefined);
    if (taken.size > 0) this.jobs = this.jobs.filter((job) => !taken.has(job));
    return [...taken];
  }

  private writerOf(job: Job): unknown {
    return this.options.writerOf ? this.options.writerOf(job) : job;
  }

  private async write(batch: readonly Job[]): Promise<void> {
    let result: Written;
    try {
      result = await this.commit(batch);
    } catch (error) {
      if (batch.length === 1) batch[0]!.failed(error);
      else for (const job of batch) await this.write([job]);
      return;
    }
    this.written(batch, result);
  }
}
