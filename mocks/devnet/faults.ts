import { BASE_HEADERS, json, type DevnetResponse } from './http-kit.ts';

export type MalformedKind = 'truncated' | 'wrong-types';

export interface Faults {
  /** Share of API requests answered 429, from 0 to 1, spread evenly (deterministic). */
  rateLimit: { rate: number; retryAfterSeconds: number } | null;
  /** A gateway's budget: API requests beyond this many in any minute are answered 429. */
  budgetPerMinute: number | null;
  latencyMs: number;
  /** The realtime feed's events and acknowledgements reach each client this long after they are sent, in order. */
  feedLagMs: number;
  /** Answers whose path starts with one of these prefixes come back broken. */
  malformed: { pathPrefix: string; kind: MalformedKind }[];
  /** Behave like an API 8.x node: no v3 routes (404). */
  oldNode: boolean;
}

export const NO_FAULTS: Faults = {
  rateLimit: null,
  budgetPerMinute: null,
  latencyMs: 0,
  feedLagMs: 0,
  malformed: [],
  oldNode: false,
};

/** Applies the configured faults to API answers; the control API under /devnet/ is never affected. */
export class FaultInjector {
  private current: Faults = structuredClone(NO_FAULTS);
  /** Wakes the requests held for latency, to look at the latency again. */
  private readonly held = new Set<() => void>();

  get faults(): Faults {
    return this.current;
  }

  /** API requests held for latency now. */
  get holding(): number {
    return this.held.size;
  }

  /** New faults: a request held for latency is looked at again under them (a node that recovers answers at once). */
  set faults(next: Faults) {
    this.current = next;
    for (const wake of [...this.held]) wake();
  }

  /**
   * Until an API request that arrived at `arrivedAt` is due: `latencyMs` after its arrival, with the latency as it is
   * now, so that lowering it answers what a slow node held, as a node that recovers does.
   */
  async heldFor(arrivedAt: number): Promise<void> {
    for (let wait = arrivedAt + this.current.latencyMs - Date.now(); wait > 0;) {
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.held.delete(wake);
          resolve();
        };
        const timer = setTimeout(wake, wait);
        this.held.add(wake);
      });
      wait = arrivedAt + this.current.latencyMs - Date.now();
    }
  }
  private credit = 0;
  private readonly recent: number[] = [];

  /** A 429 to send instead of answering, or null. */
  rateLimited(now = Date.now()): DevnetResponse | null {
    const budget = this.faults.budgetPerMinute;
    if (budget !== null) {
      while (this.recent.length > 0 && this.recent[0]! <= now - 60_000) this.recent.shift();
      if (this.recent.length >= budget) {
        const retryAfter = Math.ceil((this.recent[0]! + 60_000 - now) / 1000);
        return json(
          429,
          { error: 'Too Many Requests', message: `Budget of ${budget} requests a minute exceeded` },
          { 'retry-after': String(retryAfter) },
        );
      }
      this.recent.push(now);
    }
    const limit = this.faults.rateLimit;
    if (!limit || limit.rate <= 0) return null;
    this.credit += limit.rate;
    if (this.credit < 1) return null;
    this.credit -= 1;
    return json(
      429,
      { error: 'Too Many Requests', message: `Rate limit exceeded, retry in ${limit.retryAfterSeconds} seconds` },
      {
        'retry-after': String(limit.retryAfterSeconds),
        'ratelimit-remaining': '0',
        'ratelimit-reset': String(limit.retryAfterSeconds),
      },
    );
  }

  corrupt(path: string, response: DevnetResponse): DevnetResponse {
    const rule = this.faults.malformed.find((candidate) => path.startsWith(candidate.pathPrefix));
    if (!rule || response.status !== 200) return response;
    const body =
      rule.kind === 'truncated'
        ? response.body.slice(0, Math.floor(response.body.length / 2))
        : JSON.stringify(flipTypes(JSON.parse(response.body)));
    return { ...response, headers: { ...BASE_HEADERS, ...response.headers }, body };
  }
}

/** Integer strings become numbers and numbers strings: the kind of drift a runtime validator must catch. */
function flipTypes(value: unknown): unknown {
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(flipTypes);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, flipTypes(v)]));
  return value;
}
