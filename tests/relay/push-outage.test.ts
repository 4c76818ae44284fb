import { relayDataDir } from './pglite-template.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { createLog } from '../../src/relay/log.ts';
import { FAILING_PUSHES } from '../../src/relay/push/push-answers.ts';
import { DEFAULT_RETRY } from '../../src/relay/push/retry-policy.ts';
import { startRelay, type RunningRelay } from '../../src/relay/relay.ts';
import type { tempDir } from './harness.ts';
import { call, eventually, pushedSides, random, startPushStandIn, type PushStandIn } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';
import { PushProxy } from './push-proxy.ts';
import { Observed } from './scenario.ts';

interface Pushed {
  readonly alert: { id: string; phase: string; cursor: string };
}
interface LogLine {
  readonly level: string;
  readonly event: string;
  readonly repeats?: number;
  readonly [field: string]: unknown;
}

const ADMIN = random(40);
/** Time scaled down: the old budget (5 tries, 2 + 4 + 8 + 16 s) is 50 + 100 + 200 + 400 ms here. */
const BACKOFF_MS = 50;
/** A state's lifetime (its TTL: 24 h, an hour for a pending state) scaled down the same way. */
const LIFETIME_MS = 12_000;
/** When /health says the pushes are failing (five in a row over a minute), its minute scaled down the same way. */
const PUSHES_FAILING = {
  pushes: FAILING_PUSHES.pushes,
  forMs: (FAILING_PUSHES.forMs * BACKOFF_MS) / DEFAULT_RETRY.backoffMs,
};

let devnet: RunningDevnet;
let standIn: PushStandIn;
let proxy: PushProxy;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof tempDir>>;
let postgres: RunningPostgres | null = null;
let closed = false;
const lines: string[] = [];
const logged = (): LogLine[] => lines.map((line) => JSON.parse(line) as LogLine);

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
});

afterAll(async () => {
  standIn?.close();
  await devnet?.close();
});

/** A relay on this database, its log kept in `lines`, time scaled down. */
async function startOn(kind: 'pglite' | 'postgres'): Promise<void> {
  proxy = await new PushProxy(standIn.origin).start();
  dir = await relayDataDir('relay-outage-');
  postgres = kind === 'postgres' ? await startPostgres() : null;
  lines.length = 0;
  closed = false;
  const config = readConfig(
    // The test polls the relay often: its per-address request limit is lifted.
    [
      '--testnet-node',
      devnet.url,
      '--data-dir',
      dir.path,
      '--port',
      '0',
      '--push-allow',
      proxy.origin,
      '--rate',
      '100000',
    ],
    {
      RELAY_ADMIN_TOKEN: ADMIN,
      RELAY_METRICS: '1',
      RELAY_PUSH_THREADS: '0',
      ...(postgres ? { DATABASE_URL: postgres.url } : {}),
    },
  );
  relay = await startRelay(config, {
    log: createLog({ write: (line) => lines.push(line) }),
    retry: { backoffMs: BACKOFF_MS, maxBackoffMs: 8 * BACKOFF_MS, lifetimeMs: () => LIFETIME_MS },
    pushesFailing: PUSHES_FAILING,
  });
}

async function stop(): Promise<void> {
  if (!closed) await relay?.close();
  await proxy?.close();
  await postgres?.stop();
  await dir?.remove();
}

async function register(principals: readonly string[]) {
  const subscription = await standIn.subscribe(relay.vapidPublicKey);
  const id = random(24);
  const secret = random(43);
  const answer = await call(`${relay.url}/v1/devices/${id}`, {
    method: 'PUT',
    secret,
    body: {
      subscription: { endpoint: proxy.endpointFor(subscription.endpoint), keys: subscription.keys },
      watches: principals.map((principal) => ({ network: 'testnet', principal })),
    },
  });
  expect(answer.status).toBe(201);
  return { id, secret, clientHash: subscription.clientHash };
}

const pushes = async (clientHash: string): Promise<Pushed[]> =>
  (await standIn.notifications(clientHash)).flatMap((text) => pushedSides<Pushed['alert']>(text));

async function finalStates(clientHash: string, observed: Observed, what: string): Promise<Pushed[]> {
  return eventually(what, async () => {
    const all = await pushes(clientHash);
    const last = new Map(all.map((push) => [push.alert.id, push.alert.phase]));
    return [...observed.expected()].every(([id, phase]) => last.get(id) === phase) ? all : undefined;
  });
}

const refusedTimes = (): Map<string, number> => {
  const counts = new Map<string, number>();
  for (const seen of proxy.seen)
    if (seen.status === 503) counts.set(seen.topic ?? '', (counts.get(seen.topic ?? '') ?? 0) + 1);
  return counts;
};

const admin = (path: string, method = 'GET') =>
  call(`${relay.url}${path}`, { method, headers: { authorization: `Bearer ${ADMIN}` } });

for (const kind of ['pglite', 'postgres'] as const)
  describe(`a push service down for longer than the old retry budget (${kind})`, () => {
    beforeAll(() => startOn(kind));
    afterAll(stop);

    it('delivers every alert in its final state afterwards; what outlives its lifetime is dead-lettered, then re-driven', async () => {
      const [a, b, c] = devnet.node.chain.accounts.all.map((account) => account.address);
      const observed = new Observed(devnet.node.chain);
      observed.watch(b!);
      observed.watch(c!);
      const device = await register([b!, c!]);
      await eventually('the relay to follow the devnet', async () => {
        const health = await call(`${relay.url}/health`);
        return health.status === 200 &&
          (health.body?.['networks'] as { testnet?: { connected: boolean } }).testnet?.connected
          ? true
          : undefined;
      });
      await relay.engine.idle();

      // 1. Down: every state is refused more than the 5 tries it used to get, then the service is back.
      const downAt = Date.now();
      proxy.down = { status: 503 };
      await observed.transfer(a!, b!, 1_000_000n);
      await observed.transfer(a!, c!, 2_000_000n);
      await observed.transfer(b!, a!, 5_000n);
      devnet.node.chain.mine();
      await eventually('each alert to be refused more than 5 times', async () => {
        const counts = refusedTimes();
        return counts.size >= 3 && [...counts.values()].every((times) => times > 5) ? true : undefined;
      });
      // /health reads its queue figures at most every 5 s: polled until they show the queue.
      const sender = await eventually('/health to show the queued pushes', async () => {
        const figures = (await call(`${relay.url}/health`)).body?.['sender'] as { queued: number } | undefined;
        return figures && figures.queued > 0 ? figures : undefined;
      });
      expect(sender).toMatchObject({ deadLetters: 0 });
      // Every push refused for longer than the threshold: not ready, saying why (the relay's node and database are fine).
      const failing = await eventually('/health to say the pushes are failing', async () => {
        const health = await call(`${relay.url}/health`);
        return health.status === 503 && health.body ? health.body : undefined;
      });
      const run = failing['pushesFailing'] as { consecutive: number; since: number; lastAnswer: string };
      expect(failing).toMatchObject({ ok: false, database: true });
      expect(failing['summary']).toBe(
        `not ready: pushes failing: ${run.consecutive} consecutive failures since ${new Date(run.since).toISOString()}, ` +
          "the last answered 503 (sender.answers counts the push services' answers; what is given up goes to the " +
          'dead-letter list)',
      );
      // Against what the push service saw: every push it answered so far was refused.
      expect(run.consecutive).toBeGreaterThanOrEqual(PUSHES_FAILING.pushes);
      expect(run.consecutive).toBeLessThanOrEqual(proxy.seen.filter((seen) => seen.status === 503).length);
      expect(proxy.seen.every((seen) => seen.status === 503)).toBe(true);
      expect(run.since).toBeGreaterThanOrEqual(downAt);
      proxy.down = null;
      const afterOutage = await finalStates(device.clientHash, observed, 'every alert after the outage');
      const states = afterOutage.map((push) => `${push.alert.id} ${push.alert.phase}`);
      expect(states.length, states.join('\n')).toBe(new Set(states).size);
      // A push taken again: ready.
      const recovered = await eventually('/health to be ready again', async () => {
        const health = await call(`${relay.url}/health`);
        return health.status === 200 ? health.body : undefined;
      });
      expect(recovered).toMatchObject({ ok: true, pushesFailing: null, summary: 'ready' });
      expect((await admin('/admin/dead-letters')).body).toMatchObject({ total: 0 });

      // 2. Down for longer than a state's lifetime: given up to the dead-letter list (the pending state a
      // confirmation replaced is not among them), still listed for the device's catch-up, then re-driven.
      const seenBefore = proxy.seen.length;
      proxy.down = { status: 503 };
      const late = await observed.transfer(a!, b!, 3_000_000n);
      await eventually('the pending state to be refused', async () =>
        proxy.seen.slice(seenBefore).some((seen) => seen.status === 503) ? true : undefined,
      );
      devnet.node.chain.mine();
      const dead = await eventually('the confirmed state to be given up', async () => {
        const list = await admin('/admin/dead-letters');
        return list.body && (list.body['total'] as number) >= 1 ? list.body : undefined;
      });
      const letters = dead['letters'] as { deviceId: string; phase: string; answer: string }[];
      expect(letters.map((letter) => [letter.deviceId, letter.phase, letter.answer])).toEqual([
        [device.id, 'confirmed', '503'],
      ]);
      const listed = await call(`${relay.url}/v1/devices/${device.id}/alerts`, { secret: device.secret });
      const catchUp = listed.body?.['alerts'] as { txId: string; phase: string }[];
      expect(catchUp.filter((alert) => alert.txId === late.signed.txId).map((alert) => alert.phase)).toContain(
        'confirmed',
      );
      proxy.down = null;
      const redriven = await admin('/admin/dead-letters/redrive', 'POST');
      expect(redriven.body).toEqual({ requeued: 1, superseded: 0 });
      const all = await finalStates(device.clientHash, observed, 'the re-driven alert');
      const told = all.map((push) => `${push.alert.id} ${push.alert.phase}`);
      expect(told.length, told.join('\n')).toBe(new Set(told).size);
      expect((await admin('/admin/dead-letters')).body).toMatchObject({ total: 0 });

      // What an operator saw: one line per kind of event, repeats counted, and metrics that add up.
      // The queue empties once the last retry's backoff has run out (a busy machine draws it out).
      const text = await eventually('the push queue to empty', async () => {
        const metrics = await (await fetch(`${relay.url}/metrics`)).text();
        return /relay_push_queue_depth 0\n/.test(metrics) ? metrics : undefined;
      });
      const refused = proxy.seen.filter((seen) => seen.status === 503).length;
      expect(text).toContain(`relay_pushes_total{answer="503"} ${refused}`);
      expect(text).toMatch(/relay_push_failed_total 1\n/);
      expect(text).toMatch(/relay_push_queue_depth 0\n/);
      expect(text).toMatch(/relay_followed_principals\{network="testnet"\} 2\n/);
      await relay.close();
      closed = true;
      console.info(`${kind}: ${refused} refusals (503), ${lines.length} log lines:\n${lines.join('\n')}`);
      const failures = logged().filter((line) => line.event === 'push service failed');
      // The first of a kind is written at once, its repeats counted on one later line.
      expect(failures.reduce((sum, line) => sum + (line.repeats ?? 1), 0)).toBe(refused);
      expect(failures.length).toBeLessThan(refused / 4);
    });
  });
