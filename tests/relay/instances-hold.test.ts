/**
 * A push service's 429 holds across instances: a device held by one instance (Retry-After: ten minutes) stays held when
 * another instance takes it over, for the states it takes over from the first and for those it stores itself.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { createLog } from '../../src/relay/log.ts';
import { startRelay, type RunningRelay } from '../../src/relay/relay.ts';
import { call, eventually, pushedSides, random, startPushStandIn, tempDir, type PushStandIn } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';
import { PushProxy } from './push-proxy.ts';

let devnet: RunningDevnet;
let standIn: PushStandIn;
let proxy: PushProxy;
let postgres: RunningPostgres;
let db: pg.Client;
const relays: RunningRelay[] = [];
/** What the instances logged, told when a step times out. */
let logged = '';
const dirs: Awaited<ReturnType<typeof tempDir>>[] = [];

beforeAll(async () => {
  [devnet, standIn, postgres] = await Promise.all([
    startDevnet({ port: 0, blockMs: null, activity: false }),
    startPushStandIn(),
    startPostgres(),
  ]);
  proxy = await new PushProxy(standIn.origin).start();
  db = new pg.Client({ connectionString: postgres.url });
  await db.connect();
});

afterAll(async () => {
  for (const relay of relays) await relay.close().catch(() => undefined);
  for (const dir of dirs) await dir.remove();
  await db?.end();
  await postgres?.stop();
  await proxy?.close();
  standIn?.close();
  await devnet?.close();
});

async function instance(name: string): Promise<RunningRelay> {
  const dir = await tempDir(`relay-hold-${name}-`);
  dirs.push(dir);
  const config = readConfig(
    [
      ...['--testnet-node', devnet.url, '--database-url', postgres.url, '--instance', name],
      ...['--data-dir', dir.path, '--port', '0', '--push-threads', '0'],
      ...['--push-allow', `${proxy.origin},${standIn.origin}`],
    ],
    {},
  );
  const relay = await startRelay(config, {
    report: () => undefined,
    log: createLog({ write: (line) => (logged += `${name} ${line}\n`) }),
  });
  relays.push(relay);
  return relay;
}

interface Health {
  instance?: { partitions: number; devices: number };
}
const owning = (relay: RunningRelay, devices: number) =>
  eventually(`${relay.url} to hold every partition and judge ${devices} devices`, async () => {
    const { instance: status } = (await call(`${relay.url}/health`)).body as Health;
    return status?.partitions === 32 && status.devices === devices ? true : undefined;
  });

describe('a 429 across instances', () => {
  it('holds the device on the instance that takes it over, for queued and new states', async () => {
    const chain = devnet.node.chain;
    const [alice, bob] = chain.accounts.people.map((person) => person.address);
    const a = await instance('relay-a');
    await owning(a, 0);
    const register = async (endpoint: (raw: string) => string) => {
      const subscribed = await standIn.subscribe(a.vapidPublicKey);
      const [id, secret] = [random(24), random(43)];
      const answer = await call(`${a.url}/v1/devices/${id}`, {
        method: 'PUT',
        secret,
        body: {
          subscription: { endpoint: endpoint(subscribed.endpoint), keys: subscribed.keys },
          watches: [{ network: 'testnet', principal: alice }],
        },
      });
      expect(answer.status).toBe(201);
      return { id, clientHash: subscribed.clientHash };
    };
    // Held goes through the proxy, which answers its first push 429 with ten minutes' Retry-After; free does not.
    const held = await register((raw) => proxy.endpointFor(raw));
    const free = await register((raw) => raw);
    await owning(a, 2);
    proxy.refusals.push({ status: 429, retryAfter: '600' });
    await chain.submit(bob!, { kind: 'stx', recipient: alice!, amount: 1_000n, memo: '' });
    chain.mine();
    await eventually('the held device to be refused with 429', async () =>
      proxy.seen.some((seen) => seen.status === 429) ? true : undefined,
    );
    const heldUntil = await eventually(
      'the hold to be stored on the device',
      async () => {
        const { rows } = await db.query<{ held_until: string }>('SELECT held_until FROM devices WHERE id = $1', [
          held.id,
        ]);
        return Number(rows[0]?.held_until ?? 0) > 0 ? Number(rows[0]!.held_until) : undefined;
      },
      20_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; the instances logged:\n${logged}`);
    });

    // Another instance takes every device over once the first stops (its leases and claims let go).
    const b = await instance('relay-b');
    await a.close();
    relays.splice(relays.indexOf(a), 1);
    await owning(b, 2);
    const tx = await chain.submit(bob!, { kind: 'stx', recipient: alice!, amount: 2_000n, memo: '' });
    chain.mine();
    const txId = tx.signed.txId;
    await eventually('the free device to be told of the new transfer by the second instance', async () => {
      const pushed = (await standIn.notifications(free.clientHash)).flatMap((text) =>
        pushedSides<{ id: string; phase: string }>(text),
      );
      return pushed.some((push) => push.alert.id.endsWith(txId) && push.alert.phase === 'confirmed') ? true : undefined;
    });
    await b.engine.idle();
    await b.sender.idle();

    // The held device's states (the first instance's and the second's) are queued, claimed by the second, not
    // before the hold; nothing more reached its push service.
    const { rows } = await db.query<{ alert: string; next_try_at: string; claimed_by: string | null }>(
      `SELECT alert, next_try_at, claimed_by FROM deliveries WHERE device_id = $1 AND status = 'queued'`,
      [held.id],
    );
    expect(rows.some((row) => (JSON.parse(row.alert) as { txId: string }).txId === txId)).toBe(true);
    for (const row of rows) {
      expect(Number(row.next_try_at)).toBeGreaterThanOrEqual(heldUntil);
      expect(row.claimed_by).toBe('relay-b');
    }
    expect(
      proxy.seen.map((seen) => seen.status),
      `${JSON.stringify(proxy.seen)} ${JSON.stringify(rows)} held until ${heldUntil}; logged:\n${logged}`,
    ).toEqual([429]);
    expect(await standIn.notifications(held.clientHash)).toEqual([]);
  });
});
