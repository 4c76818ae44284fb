import { relayDataDir } from './pglite-template.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import type { tempDir } from './harness.ts';
import {
  call,
  eventually,
  pushedSides,
  random,
  relayInProcess,
  startPushStandIn,
  type PushStandIn,
} from './harness.ts';
import { PushProxy } from './push-proxy.ts';
import { Observed } from './scenario.ts';

interface Pushed {
  readonly v: number;
  readonly alert: { id: string; phase: string; cursor: string; title: string; body: string; path: string };
}

let devnet: RunningDevnet;
let standIn: PushStandIn;
let proxy: PushProxy;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof tempDir>>;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  standIn = await startPushStandIn();
});

afterAll(async () => {
  standIn?.close();
  await devnet?.close();
});

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

/** The last state pushed of each alert, once every expected one is in its final state. */
async function deliveredAsExpected(clientHash: string, observed: Observed): Promise<Map<string, string>> {
  const expected = observed.expected();
  return eventually(`the pushes to match ${JSON.stringify([...expected])}`, async () => {
    const last = new Map<string, string>();
    for (const push of await pushes(clientHash)) last.set(push.alert.id, push.alert.phase);
    return [...expected].every(([id, phase]) => last.get(id) === phase) ? last : undefined;
  });
}

/** No stored state (its cursor) pushed twice; a phase may come again as a new state (mined again after a re-org). */
function expectNoRepeats(list: readonly Pushed[]): void {
  const states = list.map((push) => `${push.alert.id} ${push.alert.cursor}`);
  expect(states.length, `repeated: ${states.join('\n')}`).toBe(new Set(states).size);
}

// Pushes encrypted and posted on the event loop, and on worker threads: the same pushes either way.
for (const threads of ['0', '2'])
  describe(`the relay delivers what happens on the devnet (push threads: ${threads})`, () => {
    beforeAll(async () => {
      dir = await relayDataDir('relay-delivery-');
      proxy = await new PushProxy(standIn.origin).start();
      relay = await relayInProcess(devnet.url, dir.path, ['--push-allow', proxy.origin, '--push-threads', threads]);
    });

    afterAll(async () => {
      await relay?.close();
      await proxy?.close();
      await dir?.remove();
    });

    it('transfers, 429s, 5xx, a re-org and a node outage: every alert once, in its final state', async () => {
      const [a, b, c] = devnet.node.chain.accounts.all.map((account) => account.address);
      const observed = new Observed(devnet.node.chain);
      observed.watch(b!);
      observed.watch(c!);
      const device = await register([b!, c!]);
      await eventually('the relay to follow the devnet', async () =>
        (await call(`${relay.url}/health`)).body?.['networks'] &&
        ((await call(`${relay.url}/health`)).body as { networks: { testnet?: { connected: boolean } } }).networks
          .testnet?.connected
          ? true
          : undefined,
      );
      await relay.engine.idle();

      // Transfers in, out and to a second address, mined together.
      await observed.transfer(a!, b!, 1_000_000n);
      await observed.transfer(a!, c!, 2_000_000n);
      await observed.transfer(b!, a!, 5_000n);
      devnet.node.chain.mine();
      await deliveredAsExpected(device.clientHash, observed);

      // The push service asks to slow down, then fails twice: the pushes arrive all the same, once.
      proxy.refusals.push({ status: 429, retryAfter: '1' }, { status: 503 }, { status: 503 });
      await observed.transfer(a!, b!, 3_000_000n);
      devnet.node.chain.mine();
      await deliveredAsExpected(device.clientHash, observed);
      expect(proxy.seen.map((seen) => seen.status)).toEqual(expect.arrayContaining([429, 503, 503, 201]));

      // A re-org orphans a confirmed transfer: it is told as reverted, back in the mempool, then mined again.
      const orphaned = await observed.transfer(a!, c!, 4_000_000n);
      devnet.node.chain.mine();
      await deliveredAsExpected(device.clientHash, observed);
      observed.reorg(1);
      await deliveredAsExpected(device.clientHash, observed);

      // The node goes away; what happens meanwhile arrives after it is back.
      await fetch(`${devnet.url}/devnet/outage`, { method: 'POST', body: JSON.stringify({ ms: 2500 }) });
      await observed.transfer(a!, b!, 6_000_000n);
      devnet.node.chain.mine();
      await deliveredAsExpected(device.clientHash, observed);

      const all = await pushes(device.clientHash);
      // Four transfers touching b, two touching c (one of them orphaned and mined again).
      expect([...observed.expected().values()].sort()).toEqual([
        'confirmed',
        'confirmed',
        'confirmed',
        'confirmed',
        'confirmed',
        'confirmed',
      ]);
      expectNoRepeats(all);
      expect(new Set(all.map((push) => push.alert.id))).toEqual(new Set(observed.expected().keys()));
      for (const push of all) {
        expect(push.v).toBe(1);
        expect(push.alert.path).toMatch(/^\/address\//);
        expect(push.alert.title.length).toBeGreaterThan(0);
      }
      // Headers: an opaque topic (never an address), TTL what is left of the state's lifetime (an hour pending, a
      // day else, counted from when the relay learned it), high urgency for confirmed incoming.
      const accepted = proxy.seen.filter((seen) => seen.status === 201);
      for (const seen of accepted) {
        expect(seen.topic).toMatch(/^[A-Za-z0-9_-]{32}$/);
        expect(seen.topic).not.toContain(b!.slice(0, 8));
        expect(Number(seen.ttl)).toBeGreaterThan(0);
        expect(Number(seen.ttl)).toBeLessThanOrEqual(86_400);
        expect(['high', 'normal']).toContain(seen.urgency);
      }
      expect(accepted.some((seen) => seen.urgency === 'high')).toBe(true);
      // A pending state's lifetime is an hour: none is sent with more.
      expect(accepted.some((seen) => Number(seen.ttl) <= 3_600)).toBe(true);

      // The same alerts, from the API, oldest first, in one page.
      const listed = await call(`${relay.url}/v1/devices/${device.id}/alerts`, { secret: device.secret });
      const alerts = listed.body?.['alerts'] as Pushed['alert'][];
      expect(alerts.map((alert) => `${alert.id} ${alert.phase}`)).toEqual(
        expect.arrayContaining(all.map((push) => `${push.alert.id} ${push.alert.phase}`)),
      );
      const after = await call(`${relay.url}/v1/devices/${device.id}/alerts?after=${String(listed.body?.['next'])}`, {
        secret: device.secret,
      });
      expect(after.body).toMatchObject({ alerts: [], more: false });
      // The orphaned transfer's states as stored for c: reverted, then confirmed again.
      const orphanedStates = alerts
        .filter((alert) => alert.id === `testnet:${c}:${orphaned.signed.txId}`)
        .map((alert) => alert.phase);
      expect(orphanedStates.slice(orphanedStates.indexOf('reverted')).filter((phase) => phase !== 'pending')).toEqual([
        'reverted',
        'confirmed',
      ]);
    });

    it('forgets a device whose subscription the push service says is gone (410)', async () => {
      const [a, , , d] = devnet.node.chain.accounts.all.map((account) => account.address);
      const observed = new Observed(devnet.node.chain);
      observed.watch(d!);
      const device = await register([d!]);
      await relay.engine.idle();
      await standIn.expire(device.clientHash);
      await observed.transfer(a!, d!, 1_000n);
      devnet.node.chain.mine();
      await eventually('the device to be forgotten', async () => {
        const answer = await call(`${relay.url}/v1/devices/${device.id}/alerts`, { secret: device.secret });
        return answer.status === 401 ? true : undefined;
      });
      expect(proxy.seen.some((seen) => seen.status === 410)).toBe(true);
    });
  });
