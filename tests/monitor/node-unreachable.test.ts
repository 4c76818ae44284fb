import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { StacksRestClient } from '../../src/chain/rest-client.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../../src/chain/scheduler.ts';
import { NetworkMonitor } from '../../src/monitor/network-monitor.ts';
import { mswServer, ORIGIN, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

const bob = () => 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';

describe('a node the app cannot reach', () => {
  it('is said in plain words, with when the next try is, and tried again after a jittered delay', async () => {
    const { devnet, monitor } = rig({ limits: { maxAttempts: 1 }, retryMs: 60_000 });
    const bob = devnet.chain.accounts.people[1]!.address;
    // As the browser fails a request that got no answer: no network, no such name, refused.
    mswServer().use(
      http.get(`${ORIGIN}/extended*`, () => {
        return HttpResponse.error();
      }),
    );
    const before = Date.now();
    monitor.start([bob]);
    await vi.waitFor(() => expect(monitor.status.problem).toMatch(/Can’t reach devnet\.test:3999: no network/));
    expect(monitor.status.problem).not.toMatch(/Failed to fetch/);
    await vi.waitFor(() => expect(monitor.status.retryAt).toBeTypeOf('number'));
    // Jittered between half and the whole of the delay, never at once.
    expect(monitor.status.retryAt! - before).toBeGreaterThanOrEqual(30_000);
    monitor.stop();
  });
});

describe('a node that tells its tip but fails every address', () => {
  it('stays one problem across its retries: never cleared at the tip, dated from the first failure', async () => {
    const { devnet, monitor } = rig({ limits: { maxAttempts: 1 }, retryMs: 20 });
    const bob = devnet.chain.accounts.people[1]!.address;
    // `/extended` (the tip) answers; every read of an address gets no answer.
    mswServer().use(http.get(`${ORIGIN}/extended/*`, () => HttpResponse.error()));
    const seen: { problem: string | null; since: number | null; syncing: boolean }[] = [];
    const stop = monitor.subscribe(() =>
      seen.push({
        problem: monitor.status.problem,
        since: monitor.status.problemSince ?? null,
        syncing: monitor.status.syncing,
      }),
    );
    monitor.start([bob]);
    const failed = () => seen.findIndex((status) => status.problem !== null);
    // Three more rounds after the first failure: each begins with a sync and reads the tip again.
    const rounds = () => seen.slice(failed()).filter((status, i, all) => status.syncing && !all[i - 1]?.syncing).length;
    await vi.waitFor(() => expect(failed() >= 0 && rounds() >= 3).toBe(true), { timeout: 20_000 });
    stop();
    monitor.stop();
    const after = seen.slice(failed());
    expect(after.filter((status) => status.problem === null)).toEqual([]);
    expect(new Set(after.map((status) => status.since)).size).toBe(1);
  });
});

describe('backing off from a node that stays unreachable', () => {
  it('asks it a few times an hour, paces the socket with it, and tries at once when woken (simulated time)', async () => {
    const { book } = rig();
    const node = {
      network: 'testnet' as const,
      url: ORIGIN,
      name: 'Gone node',
      apiKey: null,
      limits: PUBLIC_NODE_DEFAULTS,
    };
    const asked: number[] = [];
    const paced: (number | null)[] = [];
    mswServer().use(
      http.all(`${ORIGIN}/*`, () => {
        asked.push(Date.now());
        return HttpResponse.error();
      }),
    );
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const monitor = new NetworkMonitor({
        node,
        rest: new StacksRestClient(node, new HostScheduler(PUBLIC_NODE_DEFAULTS)),
        book,
        // A socket that cannot connect either: what matters here is the pace it is asked to keep.
        openFeed: (handlers) => {
          handlers.onState('reconnecting');
          return {
            setPrincipals: async () => {},
            setTransactions: () => {},
            close: () => {},
            pace: (ms) => void paced.push(ms),
          };
        },
      });
      const start = Date.now();
      monitor.start([bob()]);
      const minutes = 60;
      for (let minute = 0; minute < minutes; minute++) await vi.advanceTimersByTimeAsync(60_000);
      const lastHalf = asked.filter((at) => at - start >= 30 * 60_000).length;
      console.log(
        `[backoff] requests to an unreachable node: ${asked.length} in ${minutes} simulated minutes, ${lastHalf} in the last 30`,
      );
      // Capped at one try (two requests: one retry of a blip) every 2.5 to 5 minutes once backed off.
      expect(lastHalf).toBeLessThanOrEqual(2 * Math.ceil(30 / 2.5));
      expect(asked.length).toBeLessThanOrEqual(60);
      // The socket was told to keep the same pace, growing with it.
      expect(paced.filter((ms) => ms !== null).at(-1)).toBeGreaterThanOrEqual(150_000);
      // Back online or back in view: tried at once, the backoff and the socket's pace reset.
      const before = asked.length;
      const pacedBefore = paced.length;
      monitor.retryNow();
      await vi.advanceTimersByTimeAsync(1000);
      expect(asked.length).toBeGreaterThan(before);
      expect(paced.slice(pacedBefore)[0]).toBe(null);
      expect(monitor.status.retryAt! - Date.now()).toBeLessThanOrEqual(5000);
      monitor.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
