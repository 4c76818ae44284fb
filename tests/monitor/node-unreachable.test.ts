import { http, HttpResponse } from 'msw';
import { describe, expect, it, vi } from 'vitest';
import { mswServer, ORIGIN, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

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
