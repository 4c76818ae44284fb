import { describe, expect, it } from 'vitest';
import { schedulerFor } from '../../src/chain/host-schedulers.ts';
import type { NodeConfig } from '../../src/chain/networks.ts';
import { rateLimitResetAt, retryAfterMs } from '../../src/chain/rate-limit-headers.ts';
import { HostScheduler, type Clock, type SchedulerOptions } from '../../src/chain/scheduler.ts';

/** A clock that only moves when the scheduler sleeps: time is simulated, nothing waits for real. */
function fakeClock(random = 0.5, startAt = 0): Clock & { slept: number[] } {
  let now = startAt;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    random: () => random,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
  };
}

const options = (change: Partial<SchedulerOptions> = {}): SchedulerOptions => ({
  maxConcurrent: 2,
  perMinute: 1000,
  maxAttempts: 5,
  baseDelayMs: 100,
  maxDelayMs: 1000,
  timeoutMs: 1000,
  ...change,
});

const respond = (status: number, headers: Record<string, string> = {}) => new Response(null, { status, headers });

describe('the per-host request scheduler', () => {
  it('starts at most `perMinute` requests in any minute, and a second for the way to the node', async () => {
    const clock = fakeClock();
    const scheduler = new HostScheduler(options({ perMinute: 3, maxConcurrent: 10 }), clock);
    const startedAt: number[] = [];
    for (let i = 0; i < 7; i++) await scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    expect(startedAt).toEqual([0, 0, 0, 61_000, 61_000, 61_000, 122_000]);
  });

  it('counts a request until a minute and a second after its answer: the node counted it between the two', async () => {
    const clock = fakeClock();
    const scheduler = new HostScheduler(options({ perMinute: 2, maxConcurrent: 10 }), clock);
    const startedAt: number[] = [];
    // The first is answered 10 s after it started (held by the browser for a connection, a slow node).
    await scheduler.fetch(async () => (startedAt.push(clock.now()), await clock.sleep(10_000), respond(200)));
    for (let i = 0; i < 3; i++) await scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    expect(startedAt).toEqual([0, 10_000, 71_000, 71_000]);
  });

  it('keeps a request still in flight at a reload counted until a minute after the latest its answer could come', async () => {
    const clock = fakeClock();
    let kept: number[] = [];
    const memory = {
      maxPace: 600,
      recall: () => kept.slice(),
      remember: (times: readonly number[]) => void (kept = [...times]),
    };
    const pace = options({ perMinute: 1, timeoutMs: 15_000 });
    // The page goes away while its request is on the way: no answer, no refund, ever.
    void new HostScheduler(pace, clock, memory).fetch(() => new Promise<Response>(() => {}));
    const reloaded = new HostScheduler(pace, clock, memory);
    const startedAt: number[] = [];
    await reloaded.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    // The node may have met it as late as its timeout, 15 s: the next waits a minute and a second from then.
    expect(startedAt).toEqual([76_000]);
  });

  it('keeps one scheduler per node: a pace set later applies to what the engine and the export start next', async () => {
    const node = (perMinute: number): NodeConfig => ({
      network: 'testnet',
      url: 'http://127.0.0.1:3999',
      name: 'Local devnet',
      apiKey: null,
      limits: options({ perMinute, maxConcurrent: 10 }),
    });
    const engine = schedulerFor(node(6000));
    const exporter = schedulerFor(node(2));
    expect(exporter).toBe(engine);
    const clock = fakeClock();
    const scheduler = new HostScheduler(options({ perMinute: 6000, maxConcurrent: 10 }), clock);
    const startedAt: number[] = [];
    await scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    scheduler.retune(options({ perMinute: 2, maxConcurrent: 10 }));
    for (let i = 0; i < 3; i++) await scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    // The request started before the change counts against the new pace.
    expect(startedAt).toEqual([0, 0, 61_000, 61_000]);
  });

  it('goes on counting the minute a reloaded page (or another tab) shares through its memory', async () => {
    const clock = fakeClock();
    let kept: number[] = [];
    const memory = {
      maxPace: 600,
      recall: () => kept.slice(),
      remember: (starts: readonly number[]) => void (kept = [...starts]),
    };
    const before = new HostScheduler(options({ perMinute: 3, maxConcurrent: 10 }), clock, memory);
    const startedAt: number[] = [];
    for (let i = 0; i < 2; i++) await before.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    const reloaded = new HostScheduler(options({ perMinute: 3, maxConcurrent: 10 }), clock, memory);
    for (let i = 0; i < 3; i++) await reloaded.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    expect(startedAt).toEqual([0, 0, 0, 61_000, 61_000]);
    // A request that never reached the node is given back in the shared count too.
    await reloaded
      .fetch(async () => {
        throw new TypeError('Failed to fetch');
      })
      .catch(() => undefined);
    expect(kept).toEqual([61_000, 61_000]);
    // A pace above the memory's (a local devnet's) is counted in the page alone.
    const local = new HostScheduler(options({ perMinute: 6000, maxConcurrent: 10 }), clock, memory);
    const localStart = clock.now();
    await local.fetch(async () => respond(200));
    expect(kept).toEqual([61_000, 61_000]);
    // Slowed to a kept pace, it hands the memory what it counted alone, beside the others', so a reload knows them.
    local.retune(options({ perMinute: 3, maxConcurrent: 10 }));
    expect(kept).toEqual([61_000, 61_000, localStart]);
  });

  it('runs at most `maxConcurrent` at once', async () => {
    const scheduler = new HostScheduler(options({ maxConcurrent: 2 }), fakeClock());
    let active = 0;
    let peak = 0;
    const task = () =>
      scheduler.fetch(async () => {
        peak = Math.max(peak, ++active);
        await new Promise((resolve) => setTimeout(resolve, 5));
        active -= 1;
        return respond(200);
      });
    await Promise.all(Array.from({ length: 6 }, task));
    expect(peak).toBe(2);
  });

  it('waits out a 429 for its retry-after, then succeeds', async () => {
    const clock = fakeClock();
    const scheduler = new HostScheduler(options(), clock);
    const answers = [respond(429, { 'retry-after': '7' }), respond(200)];
    const response = await scheduler.fetch(async () => answers.shift()!);
    expect(response.status).toBe(200);
    expect(clock.slept).toEqual([7000]);
    expect(scheduler.stats).toEqual({ started: 2, retries: 1, rateLimited: 1 });
  });

  it('backs off exponentially with jitter on 5xx and network errors, within the cap', async () => {
    const clock = fakeClock(1);
    const scheduler = new HostScheduler(options(), clock);
    let calls = 0;
    const response = await scheduler.fetch(async () => {
      calls += 1;
      if (calls === 1) throw new TypeError('fetch failed');
      return calls < 5 ? respond(503) : respond(200);
    });
    expect(response.status).toBe(200);
    expect(clock.slept).toEqual([100, 200, 400, 800]);
  });

  it('gives up after `maxAttempts`, returning the last answer', async () => {
    const scheduler = new HostScheduler(options({ maxAttempts: 3 }), fakeClock(0));
    expect((await scheduler.fetch(async () => respond(500))).status).toBe(500);
    await expect(scheduler.fetch(async () => Promise.reject(new TypeError('offline')))).rejects.toThrow('offline');
  });

  it('pauses the host when ratelimit-remaining reaches 0, until ratelimit-reset', async () => {
    const clock = fakeClock();
    const scheduler = new HostScheduler(options(), clock);
    await scheduler.fetch(async () => respond(200, { 'ratelimit-remaining': '0', 'ratelimit-reset': '12' }));
    await scheduler.fetch(async () => respond(200));
    expect(clock.slept).toEqual([12_000]);
  });

  it('reads ratelimit-reset as a Unix time, as Hiro\u2019s gateway sends it, never pausing for decades', async () => {
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    const clock = fakeClock(0.5, now);
    const scheduler = new HostScheduler(options(), clock);
    const resetAt = String(now / 1000 + 40);
    await scheduler.fetch(async () => respond(200, { 'ratelimit-remaining': '0', 'ratelimit-reset': resetAt }));
    await scheduler.fetch(async () => respond(200));
    expect(clock.slept).toEqual([40_000]);
  });

  it('believes a node\u2019s reset only within the hour, never one already past', () => {
    const now = Date.UTC(2026, 10, 28, 12, 0, 0);
    expect(rateLimitResetAt('12', now)).toBe(now + 12_000);
    expect(rateLimitResetAt(String(now / 1000 + 30), now)).toBe(now + 30_000);
    expect(rateLimitResetAt(String(now / 1000 - 30), now)).toBeNull();
    expect(rateLimitResetAt(String(now / 1000 + 7200), now)).toBeNull();
    expect(rateLimitResetAt('7200', now)).toBeNull();
    for (const unreadable of [null, '', 'soon', '-1', 'Infinity']) expect(rateLimitResetAt(unreadable, now)).toBeNull();
  });

  it('reads retry-after as seconds or as a date', () => {
    expect(retryAfterMs(respond(429, { 'retry-after': '3' }), 0)).toBe(3000);
    expect(retryAfterMs(respond(429, { 'retry-after': new Date(10_000).toUTCString() }), 4000)).toBe(6000);
    expect(retryAfterMs(respond(429, { 'retry-after': 'soon' }), 0)).toBeNull();
    expect(retryAfterMs(respond(429), 0)).toBeNull();
  });

  it('follows the budget the node states over its own guess, until the node\u2019s reset', async () => {
    const clock = fakeClock();
    const scheduler = new HostScheduler(options({ perMinute: 3, maxConcurrent: 10 }), clock);
    const startedAt: number[] = [];
    // The node's own rule: 5 requests in each 30 s window.
    const used = new Map<number, number>();
    const ask = () =>
      scheduler.fetch(async () => {
        startedAt.push(clock.now());
        const window = Math.floor(clock.now() / 30_000);
        used.set(window, (used.get(window) ?? 0) + 1);
        const reset = (window + 1) * 30 - clock.now() / 1000;
        return respond(200, { 'ratelimit-remaining': String(5 - used.get(window)!), 'ratelimit-reset': String(reset) });
      });
    for (let i = 0; i < 7; i++) await ask();
    // Five at once (the node allows them, though `perMinute` is 3), then the node's reset, not a minute.
    expect(startedAt).toEqual([0, 0, 0, 0, 0, 30_000, 30_000]);
  });

  it('spends no budget on requests that never reached the node', async () => {
    const clock = fakeClock();
    const scheduler = new HostScheduler(options({ perMinute: 2, maxAttempts: 1 }), clock);
    for (let i = 0; i < 6; i++)
      await expect(scheduler.fetch(async () => Promise.reject(new TypeError('Failed to fetch')))).rejects.toThrow();
    const startedAt: number[] = [];
    for (let i = 0; i < 2; i++) await scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    // The node came back: its whole budget is there, no minute lost to the probes that failed.
    expect(startedAt).toEqual([0, 0]);
  });

  it('leaves an unreachable node to the caller\u2019s backoff after a second request without an answer', async () => {
    const scheduler = new HostScheduler(options({ maxAttempts: 6 }), fakeClock());
    let calls = 0;
    const unreachable = async () => {
      calls += 1;
      throw new TypeError('Failed to fetch');
    };
    await expect(scheduler.fetch(unreachable)).rejects.toThrow('Failed to fetch');
    expect(calls).toBe(2);
  });
});

/** A clock whose sleeps end only when the test says: `advance` ends every one pending, the time moving past each. */
function heldClock() {
  let now = 0;
  let held: { until: number; wake: () => void }[] = [];
  const clock: Clock = {
    now: () => now,
    random: () => 0.5,
    sleep: (ms) => new Promise<void>((wake) => held.push({ until: now + ms, wake })),
  };
  const advance = () => {
    const due = held;
    held = [];
    now = Math.max(now, ...due.map((sleep) => sleep.until));
    for (const sleep of due) sleep.wake();
  };
  return { clock, advance, pending: () => held.length };
}

/** A request that answers only when `answer` is called, or rejects with its signal's reason as `fetch` does. */
function heldRequest() {
  let answer: (response: Response) => void = () => {};
  const calls: AbortSignal[] = [];
  const doFetch = (signal: AbortSignal) =>
    new Promise<Response>((resolve, reject) => {
      calls.push(signal);
      answer = resolve;
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { doFetch, calls, answer: (response: Response) => answer(response) };
}

describe('a request its caller cancels (an export the user cancelled)', () => {
  it('leaves the queue at once, and the next in line takes the slot it would have had', async () => {
    const scheduler = new HostScheduler(options({ maxConcurrent: 1 }), fakeClock());
    const first = heldRequest();
    const answered = scheduler.fetch(first.doFetch);
    const cancel = new AbortController();
    let cancelledSent = false;
    const cancelled = scheduler.fetch(async () => ((cancelledSent = true), respond(200)), cancel.signal);
    const started: string[] = [];
    const next = scheduler.fetch(async () => (started.push('next'), respond(200)));
    cancel.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    first.answer(respond(200));
    expect((await answered).status).toBe(200);
    expect((await next).status).toBe(200);
    expect(cancelledSent).toBe(false);
    expect(started).toEqual(['next']);
  });

  it('is aborted in flight, gives its slot back before any timeout, and is not tried again', async () => {
    // A node that holds its answers: without the cancel, the slot would come back only at the minute's timeout.
    const scheduler = new HostScheduler(options({ maxConcurrent: 1, timeoutMs: 60_000 }), fakeClock());
    const held = heldRequest();
    const cancel = new AbortController();
    const cancelled = scheduler.fetch(held.doFetch, cancel.signal);
    await expect.poll(() => held.calls.length).toBe(1);
    let nextStarted = false;
    const next = scheduler.fetch(async () => ((nextStarted = true), respond(200)));
    expect(nextStarted).toBe(false);
    cancel.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    expect(held.calls[0]!.aborted).toBe(true);
    expect((await next).status).toBe(200);
    expect(held.calls).toHaveLength(1);
    expect(scheduler.stats).toEqual({ started: 2, retries: 0, rateLimited: 0 });
  });

  it('stays counted against the minute once sent: the node may have met it', async () => {
    const { clock, advance, pending } = heldClock();
    const scheduler = new HostScheduler(options({ perMinute: 1, maxConcurrent: 5 }), clock);
    const held = heldRequest();
    const cancel = new AbortController();
    const cancelled = scheduler.fetch(held.doFetch, cancel.signal);
    await expect.poll(() => held.calls.length).toBe(1);
    cancel.abort();
    await expect(cancelled).rejects.toMatchObject({ name: 'AbortError' });
    const startedAt: number[] = [];
    const next = scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    await expect.poll(pending).toBe(1);
    advance();
    await next;
    expect(startedAt).toEqual([61_000]);
  });

  it('stops waiting out a backoff or the pace, and hands the slot on', async () => {
    const { clock, advance, pending } = heldClock();
    const scheduler = new HostScheduler(options({ perMinute: 1, maxConcurrent: 1 }), clock);
    // Refused once (5xx): the retry waits out a backoff, which the cancel ends; nothing is sent again.
    let sent = 0;
    const backingOff = new AbortController();
    const refused = scheduler.fetch(async () => ((sent += 1), respond(503)), backingOff.signal);
    await expect.poll(pending).toBe(1);
    backingOff.abort();
    await expect(refused).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toBe(1);
    // The minute's one start is spent: the next waits for the pace, and its cancel gives the slot back.
    const pacing = new AbortController();
    const waiting = scheduler.fetch(async () => respond(200), pacing.signal);
    await expect.poll(pending).toBe(2);
    pacing.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    const startedAt: number[] = [];
    const next = scheduler.fetch(async () => (startedAt.push(clock.now()), respond(200)));
    await expect.poll(pending).toBe(3);
    advance();
    await next;
    expect(startedAt).toEqual([61_000]);
    expect(sent).toBe(1);
  });

  it('is refused before it is queued when its caller cancelled already', async () => {
    const scheduler = new HostScheduler(options(), fakeClock());
    let sent = false;
    await expect(scheduler.fetch(async () => ((sent = true), respond(200)), AbortSignal.abort())).rejects.toMatchObject(
      { name: 'AbortError' },
    );
    expect(sent).toBe(false);
    expect(scheduler.stats.started).toBe(0);
  });
});
