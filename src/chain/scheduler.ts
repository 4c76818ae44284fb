import { backoffDelay } from '../domain/backoff.ts';
import { untilAborted } from '../domain/until-aborted.ts';
import { rateLimitResetAt, retryAfterMs } from './rate-limit-headers.ts';

/**
 * Requests to one host go through its scheduler: at most `maxConcurrent` at once, at most `perMinute` in any minute
 * (each counted from its start until a minute and a second after its answer: `PACE_WINDOW_MS`), a pause for the
 * whole host on 429 (its `retry-after` when the browser can read it, else backoff), and exponential backoff with full
 * jitter for 5xx, network errors and timeouts. Where the node states its own budget (`ratelimit-remaining` and
 * `ratelimit-reset`, when it lets the page read them) that budget rules until its reset instead of `perMinute`; a
 * request that got no answer at all never reached a budget and spends none.
 */
export interface SchedulerOptions {
  readonly maxConcurrent: number;
  readonly perMinute: number;
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly timeoutMs: number;
}

export const PUBLIC_NODE_DEFAULTS: SchedulerOptions = {
  maxConcurrent: 4,
  // Published budgets for the public API without a key range from 25 to 50 a minute: stay under the lowest.
  perMinute: 24,
  maxAttempts: 6,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  timeoutMs: 15_000,
};

/** A node on this machine (a devnet, or a node next to the relay) has no gateway in front of it: only be reasonable. */
export const LOCAL_NODE_LIMITS: SchedulerOptions = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: 6000 };

/**
 * How long a request counts against `perMinute` once answered: a minute and a second. The node counts a request when
 * it arrives, somewhere between the page's start and its answer (later than the start when the browser held it for a
 * free connection): a request that counts until a minute after its answer can never share the node's minute with one
 * started after that, whatever the way there took. The second is for the clocks of two machines.
 */
export const PACE_WINDOW_MS = 61_000;

export interface SchedulerStats {
  started: number;
  retries: number;
  rateLimited: number;
}

export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
  random(): number;
}

const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  random: Math.random,
};

/**
 * Where the page keeps the starts of the last minute, so that a reload, or another tab of the app, goes on counting
 * them: a fresh page that knew none would spend the node's whole minute again, and be refused.
 */
export interface StartsMemory {
  /** The fastest pace worth keeping across reloads; above it (a local devnet's 6,000 a minute) nothing is kept. */
  readonly maxPace: number;
  recall(): number[];
  remember(starts: readonly number[]): void;
}

export class HostScheduler {
  readonly stats: SchedulerStats = { started: 0, retries: 0, rateLimited: 0 };
  private active = 0;
  private readonly queue: (() => void)[] = [];
  private starts: number[] = [];
  private pausedUntil = 0;
  /** What the node said it still allows, until when: it replaces `perMinute` meanwhile. */
  private nodeBudget: { remaining: number; until: number } | null = null;

  constructor(
    private options: SchedulerOptions,
    private readonly clock: Clock = realClock,
    private readonly memory: StartsMemory | null = null,
  ) {}

  /** New limits for the requests to come (the user set a pace); what was started stays counted against them. */
  retune(options: SchedulerOptions): void {
    const keptBefore = this.keptMemory() !== null;
    this.options = options;
    const memory = this.keptMemory();
    if (keptBefore || !memory) return;
    // Counted in the page until now: the memory learns those starts beside its own, or the next recall would lose them.
    const joined = [...memory.recall(), ...this.starts].sort((a, b) => a - b);
    memory.remember(joined.slice(-options.perMinute));
  }

  /**
   * Runs a request with the host's limits and retries; resolves with the final response (never a 429 or 5xx).
   * `signal`: the caller's (an export the user cancelled). Once it aborts, the request leaves the queue, or is aborted
   * in flight and gives its slot back at once, and nothing is tried again: it rejects with the signal's reason.
   */
  async fetch(doFetch: (signal: AbortSignal) => Promise<Response>, signal?: AbortSignal): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      const start = await this.acquire(signal);
      let response: Response | null = null;
      let failure: unknown = null;
      let unanswered = false;
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new Error('timeout')), this.options.timeoutMs);
      const cancel = () => controller.abort(signal!.reason);
      signal?.addEventListener('abort', cancel, { once: true });
      // Cancelled between its slot and here (a listener added late never hears it): nothing leaves.
      if (signal?.aborted) cancel();
      try {
        response = await doFetch(controller.signal);
      } catch (error) {
        failure = error;
        // No answer (no network, a name that did not resolve, refused): the node counted nothing. One aborted (timed
        // out, or cancelled) may have reached it, and stays counted.
        unanswered = !controller.signal.aborted;
        if (unanswered) this.refund(start);
      } finally {
        clearTimeout(timer);
        signal?.removeEventListener('abort', cancel);
        if (!unanswered) this.answered(start);
        this.release();
      }
      signal?.throwIfAborted();
      if (response) this.readNodeBudget(response);
      const retryable = failure !== null || response!.status === 429 || response!.status >= 500;
      if (!retryable) return response!;
      // Twice without an answer: the node is unreachable, and the caller's own backoff decides when to ask again.
      const unreachable = unanswered && attempt >= 2;
      if (attempt >= this.options.maxAttempts || unreachable) {
        if (response) return response;
        throw failure instanceof Error ? failure : new Error(String(failure));
      }
      this.stats.retries += 1;
      const backoff = this.backoff(attempt);
      if (response?.status === 429) {
        this.stats.rateLimited += 1;
        this.pauseFor(retryAfterMs(response, this.clock.now()) ?? backoff);
      } else {
        await untilAborted(this.clock.sleep(backoff), signal);
      }
    }
  }

  private backoff(attempt: number): number {
    const backoff = { firstMs: this.options.baseDelayMs, maxMs: this.options.maxDelayMs };
    return Math.round(backoffDelay(backoff, attempt, this.clock.random, 'full'));
  }

  private pauseFor(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** `ratelimit-remaining` / `ratelimit-reset`, as the public gateway and many proxies send them. */
  private readNodeBudget(response: Response): void {
    const now = this.clock.now();
    const remaining = Number(response.headers.get('ratelimit-remaining') ?? NaN);
    const until = rateLimitResetAt(response.headers.get('ratelimit-reset'), now);
    if (!Number.isInteger(remaining) || remaining < 0 || until === null) return;
    this.nodeBudget = { remaining, until };
    if (remaining === 0 && until > now) this.pauseFor(until - now);
  }

  /** A slot and the pace's leave to start; a caller's abort meanwhile leaves the queue (or gives the slot back). */
  private async acquire(signal?: AbortSignal): Promise<number> {
    signal?.throwIfAborted();
    if (this.active >= this.options.maxConcurrent) await this.slotFreed(signal);
    this.active += 1;
    for (let wait = this.paceWait(); wait > 0; wait = this.paceWait()) {
      try {
        await untilAborted(this.clock.sleep(wait), signal);
      } catch (error) {
        this.release();
        throw error;
      }
    }
    const now = this.clock.now();
    this.recall(now);
    // Counted, until its answer, from the latest its answer can come (its timeout): a page reloaded or closed before
    // the answer leaves it counted long enough for wherever the node met it.
    const countedFrom = now + this.options.timeoutMs;
    insertSorted(this.starts, countedFrom);
    this.remember();
    if (this.nodeBudget) this.nodeBudget.remaining -= 1;
    this.stats.started += 1;
    return countedFrom;
  }

  /** Until `release` hands this caller a slot; a caller's abort takes it out of the queue. */
  private slotFreed(signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const wake = () => {
        signal?.removeEventListener('abort', leave);
        resolve();
      };
      const leave = () => {
        const index = this.queue.indexOf(wake);
        if (index >= 0) this.queue.splice(index, 1);
        reject(signal!.reason);
      };
      this.queue.push(wake);
      signal?.addEventListener('abort', leave, { once: true });
    });
  }

  /** How long until the host's pace (its minute, the node's own budget, a pause after a 429) lets one more start. */
  private paceWait(): number {
    const now = this.clock.now();
    this.recall(now);
    if (this.nodeBudget && this.nodeBudget.until <= now) {
      // The node's window renewed: what was started under it is the node's count, no longer ours to hold.
      this.nodeBudget = null;
      this.starts.length = 0;
      this.remember();
    }
    const budget = this.nodeBudget;
    const waitBudget = budget
      ? budget.remaining > 0
        ? 0
        : budget.until - now
      : this.starts.length >= this.options.perMinute
        ? this.starts[0]! + PACE_WINDOW_MS - now
        : 0;
    return Math.max(waitBudget, this.pausedUntil - now);
  }

  /** The starts of the last minute: this page's, and where a memory is kept, those before a reload or in other tabs. */
  private recall(now: number): void {
    const memory = this.keptMemory();
    if (memory) this.starts = memory.recall().sort((a, b) => a - b);
    while (this.starts.length > 0 && this.starts[0]! <= now - PACE_WINDOW_MS) this.starts.shift();
  }

  /** Only the newest `perMinute` starts ever decide a wait. */
  private remember(): void {
    this.keptMemory()?.remember(this.starts.slice(-this.options.perMinute));
  }

  /** A memory is used only for paces worth keeping: above its `maxPace` every request would cost it a write. */
  private keptMemory(): StartsMemory | null {
    return this.memory && this.options.perMinute <= this.memory.maxPace ? this.memory : null;
  }

  /** Answered: the request counts a minute on from now, its answer, instead of from the latest its answer could be. */
  private answered(countedFrom: number): void {
    const now = this.clock.now();
    this.recall(now);
    const index = this.starts.lastIndexOf(countedFrom);
    if (index < 0) return;
    this.starts.splice(index, 1);
    insertSorted(this.starts, now);
    this.remember();
  }

  private refund(countedFrom: number): void {
    this.recall(this.clock.now());
    const index = this.starts.lastIndexOf(countedFrom);
    if (index >= 0) this.starts.splice(index, 1);
    this.remember();
    if (this.nodeBudget) this.nodeBudget.remaining += 1;
  }

  private release(): void {
    this.active -= 1;
    this.queue.shift()?.();
  }
}

/** Puts `value` in its place in an ascending list. */
function insertSorted(list: number[], value: number): void {
  let index = list.length;
  while (index > 0 && list[index - 1]! > value) index--;
  list.splice(index, 0, value);
}
