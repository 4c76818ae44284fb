/** One writer's request: what to write, and whom to tell when it is stored (or failed). */
export interface Handed<Result> {
  readonly done: (result: Result) => void;
  readonly failed: (error: unknown) => void;
}

/**
 * Group commit: whatever is handed over in one turn of the event loop, or while the previous batch is written, is
 * written together (up to `maxBatch` requests a batch), one batch at a time (never two at once, so batches land in
 * the order handed over). A batch that fails is tried again one request at a time, so one writer's trouble is not
 * everyone's.
 */
export class GroupCommit<Job extends Handed<Result>, Result, Written> {
  private jobs: Job[] = [];
  private flushing: Promise<void> | null = null;

  constructor(
    /** Writes the batch (in one transaction: all of it, or none). */
    private readonly commit: (batch: readonly Job[]) => Promise<Written>,
    /** The batch is stored: tells each job. */
    private readonly written: (batch: readonly Job[], result: Written) => void,
    private readonly maxBatch = Infinity,
  ) {}

  get busy(): boolean {
    return this.flushing !== null;
  }

  add(job: Job): void {
    this.jobs.push(job);
    // One turn of the event loop gathers what every device hands over for the same block.
    this.flushing ??= new Promise((resolve) => setImmediate(resolve)).then(() => this.flush());
  }

  /** Resolves once everything handed over so far is written (or has failed). */
  async idle(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    try {
      while (this.jobs.length > 0) {
        const batch = this.jobs.length > this.maxBatch ? this.jobs.splice(0, this.maxBatch) : this.jobs.splice(0);
        await this.write(batch);
      }
    } finally {
      this.flushing = null;
    }
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
