import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { doubledWait, type Backoff } from '../../domain/backoff.ts';
import type { PushPoster } from './poster.ts';
import type { PushOutcome } from './http.ts';
import type { PushJob } from './post-request.ts';
import type { Answer, JobsMessage, WorkerMessage } from './thread-messages.ts';

/**
 * A core for the event loop, the rest (at most 4) for pushes, but two from two cores up: the event loop needs far less
 * than a core (about a third at 10,000 devices and 100 tx/s), and a block's pushes split over two threads leave
 * sooner whenever the second core has room (on 2 shared cores, back to back: p50 163-164 ms with two threads, 190-195
 * ms with one). None on a single core.
 */
export const defaultPushThreads = (cores = availableParallelism()): number =>
  cores <= 1 ? 0 : Math.min(4, Math.max(2, cores - 1));

/**
 * The worker runs as the relay does. From the TypeScript source, tsx's loader registered by `--import` does not
 * reach worker threads on Node 20, so the worker registers it itself before importing its module; compiled
 * (`npm run build`, the container), the worker is plain JavaScript beside this module and tsx is not installed.
 */
const COMPILED = import.meta.url.endsWith('.js');
const WORKER_MODULE = new URL(COMPILED ? './thread.js' : './thread.ts', import.meta.url).href;
const bootstrap = (tsxApi: string | null, module: string) =>
  tsxApi === null
    ? `import(${JSON.stringify(module)})`
    : `import(${JSON.stringify(tsxApi)}).then(({ tsImport }) => tsImport(${JSON.stringify(module)}, ${JSON.stringify(module)}))`;

interface Waiting {
  readonly resolve: (outcome: PushOutcome) => void;
  readonly reject: (error: Error) => void;
}

/** One worker thread, its pushes handed over but not yet sent to it, and those it has not answered. */
interface Thread {
  readonly worker: Worker;
  /** It has been ready: were it to die, another is started (one that never started would fail again). */
  started: boolean;
  batch: { id: number; job: PushJob }[];
  readonly waiting: Map<number, Waiting>;
}

/**
 * Encrypts and posts pushes on a few worker threads, so that a block's hundreds of pushes (an ECDH, HKDF, AES-GCM and
 * an HTTP request each) neither queue on the event loop nor hold up what else it does. Pushes handed over in one
 * turn of the event loop go in one message, to the threads with the fewest unanswered; answers come back batched
 * the same way. A thread that dies answers its unanswered pushes as unreachable (retried like any network failure)
 * and is replaced.
 */
export class ThreadPoster implements PushPoster {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private flushing = false;
  private closed = false;
  /** Threads that failed to start in a row, since one last ran: the wait before the next try grows with them. */
  private failedStarts = 0;
  private respawning: ReturnType<typeof setTimeout> | null = null;

  private constructor(
    private readonly tsxApi: string | null,
    private readonly report: (problem: string) => void,
    private readonly module: string,
  ) {}

  /**
   * Starts `size` (at least one) threads; resolves once each is ready to take pushes. `module` is what each thread
   * runs (tests give one that fails the way a broken install would).
   */
  static async start(size: number, report: (problem: string) => void, module = WORKER_MODULE): Promise<ThreadPoster> {
    const poster = new ThreadPoster(COMPILED ? null : import.meta.resolve('tsx/esm/api'), report, module);
    const starting = Array.from({ length: Math.max(1, size) }, () => poster.spawn());
    try {
      await Promise.all(starting.map((thread) => thread.ready));
    } catch (error) {
      await poster.close();
      throw error;
    }
    return poster;
  }

  /** Unreachable (status 0, tried again later) while no thread runs: the push itself is fine. */
  post(job: PushJob): Promise<PushOutcome> {
    if (this.closed) return Promise.reject(new Error('no push thread is running: the push threads were stopped'));
    if (this.threads.length === 0) return Promise.resolve({ status: 0, retryAfter: null });
    return new Promise((resolve, reject) => {
      const thread = this.threads.reduce((best, candidate) => (load(candidate) < load(best) ? candidate : best));
      const id = this.nextId++;
      thread.waiting.set(id, { resolve, reject });
      thread.batch.push({ id, job });
      if (this.flushing) return;
      this.flushing = true;
      setImmediate(() => this.flush());
    });
  }

  /** Stops the threads (the sender is idle by then: nothing is in flight). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.respawning) clearTimeout(this.respawning);
    const threads = this.threads.splice(0);
    for (const thread of threads) this.fail(thread);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private flush(): void {
    this.flushing = false;
    for (const thread of this.threads) {
      if (thread.batch.length === 0) continue;
      const message: JobsMessage = { jobs: thread.batch };
      thread.batch = [];
      thread.worker.postMessage(message);
    }
  }

  private spawn(): Thread & { ready: Promise<void> } {
    const worker = new Worker(bootstrap(this.tsxApi, this.module), { eval: true });
    const thread: Thread = { worker, started: false, batch: [], waiting: new Map() };
    this.threads.push(thread);
    const ready = new Promise<void>((resolve, reject) => {
      worker.on('message', (message: WorkerMessage) => {
        if ('ready' in message) {
          thread.started = true;
          this.failedStarts = 0;
          resolve();
        } else for (const answer of message.answers) this.answered(thread, answer);
      });
      worker.once('error', (error) => {
        reject(error);
        this.died(thread, `A push thread failed: ${String(error)}`);
      });
      worker.once('exit', (code) => {
        reject(new Error(`the push thread exited with ${code} before it was ready`));
        this.died(thread, `A push thread exited with ${code}`);
      });
    });
    return Object.assign(thread, { ready });
  }

  private answered(thread: Thread, { id, outcome }: Answer): void {
    const waiting = thread.waiting.get(id);
    thread.waiting.delete(id);
    if ('error' in outcome) waiting?.reject(new Error(outcome.error));
    else waiting?.resolve(outcome);
  }

  /**
   * Its pushes are answered as unreachable (tried again later, like any network failure); another thread starts, at
   * once for one that ran, after a growing pause for one that never started (it would likely fail again at once).
   */
  private died(thread: Thread, problem: string): void {
    const index = this.threads.indexOf(thread);
    if (index < 0) return;
    this.threads.splice(index, 1);
    this.fail(thread);
    if (this.closed) return;
    if (thread.started) {
      this.report(problem);
      this.spawn().ready.catch(() => undefined);
      return;
    }
    const waitMs = doubledWait(RESPAWN, ++this.failedStarts);
    this.report(`${problem} before it was ready; another is started in ${waitMs / 1000} s (pushes wait meanwhile)`);
    this.respawning = setTimeout(() => {
      this.respawning = null;
      if (!this.closed) this.spawn().ready.catch(() => undefined);
    }, waitMs);
    this.respawning.unref?.();
  }

  private fail(thread: Thread): void {
    for (const waiting of thread.waiting.values()) waiting.resolve({ status: 0, retryAfter: null });
    thread.waiting.clear();
    thread.batch = [];
  }
}

const load = (thread: Thread): number => thread.waiting.size;

/** Before another try at a thread that failed to start: a second, doubling up to a minute; a second again once one ran. */
const RESPAWN: Backoff = { firstMs: 1000, maxMs: 60_000 };
