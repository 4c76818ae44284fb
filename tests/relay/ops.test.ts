import { relayDataDir } from './pglite-template.ts';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { appendAlerts, markTold } from '../../src/relay/storage/deliveries.ts';
import type { RelayHooks } from '../../src/relay/relay.ts';
import { call, eventually, random, relayInProcess } from './harness.ts';

let devnet: RunningDevnet;
const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
});
afterAll(async () => devnet?.close());

/**
 * A relay on the devnet that sends no push here (no block is mined, every endpoint is a made-up FCM one): pushes are
 * posted on the event loop, not on worker threads, which cost a second of CPU each relay to start (push-threads.test
 * proves them).
 */
const relayAt = (dir: string, flags: string[] = [], ...rest: [env?: NodeJS.ProcessEnv, hooks?: RelayHooks]) =>
  relayInProcess(devnet.url, dir, ['--push-threads', '0', ...flags], ...rest);

async function putDevice(url: string, principals: readonly string[]) {
  const id = random(24);
  const secret = random(43);
  const answer = await call(`${url}/v1/devices/${id}`, {
    method: 'PUT',
    secret,
    body: {
      subscription: { endpoint: `https://fcm.googleapis.com/fcm/send/${id}`, keys },
      watches: principals.map((principal) => ({ network: 'testnet', principal })),
    },
  });
  expect(answer.status).toBe(201);
  return { id, secret };
}

describe('a lost VAPID key', () => {
  it('with devices in the database: refuses to start, saying how to recover; the flag forgets them', async () => {
    const dir = await relayDataDir('relay-lost-key-');
    try {
      const first = await relayAt(dir.path);
      const device = await putDevice(first.url, []);
      const oldKey = first.vapidPublicKey;
      await first.close();
      await rm(join(dir.path, 'vapid.json'));

      await expect(relayAt(dir.path)).rejects.toThrow(
        /vapid\.json is missing, but the database holds 1 device\(s\).*Restore vapid\.json from a backup.*--forget-devices-without-key/s,
      );
      // A count other than the one the refusal named (a flag left in a unit file from an earlier loss) deletes nothing.
      await expect(relayAt(dir.path, ['--forget-devices-without-key', '7'])).rejects.toThrow(
        /start once with --forget-devices-without-key 1 \(this count: any other is refused\).*was given 7/s,
      );
      await expect(relayAt(dir.path, ['--forget-devices-without-key', 'yes'])).rejects.toThrow(
        /takes the number of devices the refusal named/,
      );
      const again = await relayAt(dir.path, ['--forget-devices-without-key', '1']);
      try {
        expect(again.vapidPublicKey).not.toBe(oldKey);
        const gone = await call(`${again.url}/v1/devices/${device.id}/alerts`, { secret: device.secret });
        expect(gone.status).toBe(401);
      } finally {
        await again.close();
      }
    } finally {
      await dir.remove();
    }
  });

  it('with no devices: a first start makes a key without asking', async () => {
    const dir = await relayDataDir('relay-new-key-');
    try {
      const relay = await relayAt(dir.path);
      await relay.close();
      await rm(join(dir.path, 'vapid.json'));
      const again = await relayAt(dir.path);
      await again.close();
    } finally {
      await dir.remove();
    }
  });
});

describe('the catch-up past what the relay keeps', () => {
  it('says which addresses a cursor older than the last 500 states missed', async () => {
    const dir = await relayDataDir('relay-gap-');
    const relay = await relayAt(dir.path);
    try {
      const [a, b] = devnet.node.chain.accounts.all.map((account) => account.address);
      const device = await putDevice(relay.url, [a!, b!]);
      const state = (principal: string, n: number) => ({
        deviceId: device.id,
        urgency: 'normal' as const,
        alert: {
          id: `testnet:${principal}:0x${n.toString(16).padStart(64, '0')}`,
          network: 'testnet' as const,
          principal,
          txId: `0x${n.toString(16).padStart(64, '0')}`,
          phase: 'confirmed' as const,
          title: 'Received 1.00 STX',
          body: '',
          path: `/address/${principal}`,
          at: Date.now(),
        },
      });
      // 10 states of a, told (a queued one is never pruned), then 500 of b push them out of the kept log.
      const ofA = await relay.db.transaction((sql) =>
        appendAlerts(
          sql,
          Array.from({ length: 10 }, (_, n) => state(a!, n)),
        ),
      );
      await markTold(
        relay.db,
        ofA.map((stored) => ({ deviceId: device.id, cursor: Number(stored!.cursor) })),
        Date.now(),
      );
      await relay.db.transaction((sql) =>
        appendAlerts(
          sql,
          Array.from({ length: 500 }, (_, n) => state(b!, 100 + n)),
        ),
      );
      const from = async (after: string) =>
        (await call(`${relay.url}/v1/devices/${device.id}/alerts?after=${after}`, { secret: device.secret })).body;
      expect((await from('0'))?.['gap']).toEqual({ principals: [{ network: 'testnet', principal: a }] });
      expect((await from('9'))?.['gap']).toEqual({ principals: [{ network: 'testnet', principal: a }] });
      expect(await from('10')).not.toHaveProperty('gap');
    } finally {
      await relay.close();
      await dir.remove();
    }
  });
});

describe('health, metrics and the admin routes', () => {
  it('says before any device registers that idle is normal, and names the networks it follows no node for', async () => {
    const dir = await relayDataDir('relay-health-idle-');
    // Follows testnet only (relayInProcess names --testnet-node alone): mainnet is not followed.
    const relay = await relayAt(dir.path);
    try {
      const before = await call(`${relay.url}/health`);
      expect(before.status).toBe(200);
      expect(before.body).toMatchObject({
        ok: true,
        devices: 0,
        networks: { testnet: { state: 'idle', principals: 0 } },
        notFollowed: { mainnet: expect.stringMatching(/no --mainnet-node \(RELAY_MAINNET_NODE\) was given/) },
      });
      expect(before.body?.['networks']).not.toHaveProperty('mainnet');
      expect(before.body?.['summary']).toMatch(/no device has registered yet, which is normal/);

      await putDevice(relay.url, [devnet.node.chain.accounts.all[1]!.address]);
      const after = await eventually('the network followed once a device watches one of its addresses', async () => {
        const health = await call(`${relay.url}/health`);
        const testnet = (health.body?.['networks'] as Record<string, { state: string }> | undefined)?.['testnet'];
        return testnet?.state === 'following' ? health.body : undefined;
      });
      expect(after).toMatchObject({ ok: true, summary: 'ready', networks: { testnet: { principals: 1 } } });
    } finally {
      await relay.close();
      await dir.remove();
    }
  });

  it('is live while it runs; ready only while its database answers and a node it follows can be reached', async () => {
    const dir = await relayDataDir('relay-health-');
    // Polled often: the per-address request limit is lifted. Time scaled down: the node away is polled every second,
    // not every minute, and asked again from 100 ms on (doubling), not 5 s, so that the outage below is noticed, and
    // its end, within seconds however busy the machine (at the real pace a busy machine's run outlived 300 s).
    const relay = await relayAt(
      dir.path,
      ['--rate', '100000'],
      {},
      { monitorTiming: { retryMs: 100, restPollMs: 1000 } },
    );
    try {
      // Nothing followed yet: no node to reach.
      expect((await call(`${relay.url}/health`)).status).toBe(200);
      await putDevice(relay.url, [devnet.node.chain.accounts.all[1]!.address]);
      await eventually('ready with the node reached', async () => {
        const health = await call(`${relay.url}/health/ready`);
        return health.status === 200 && health.body?.['networks'] ? health.body : undefined;
      });
      // Off unless configured.
      expect((await fetch(`${relay.url}/metrics`)).status).toBe(404);
      expect((await call(`${relay.url}/admin/dead-letters`)).status).toBe(404);

      // Ended below, once the relay has said it is not ready: long enough however slowly that comes.
      await fetch(`${devnet.url}/devnet/outage`, { method: 'POST', body: JSON.stringify({ ms: 600_000 }) });
      // The relay's next try at the node comes after a backoff that doubles while the node is away: on a busy machine
      // the outage is noticed late and the wait grows. The wait ends when the health says so.
      const down = await eventually('not ready while the only node is away', async () => {
        const health = await call(`${relay.url}/health`);
        return health.status === 503 ? health.body : undefined;
      });
      expect(down).toMatchObject({ ok: false, database: true, networks: { testnet: { reachable: false } } });
      expect((await call(`${relay.url}/health/live`)).status).toBe(200);
      await fetch(`${devnet.url}/devnet/outage`, { method: 'POST', body: JSON.stringify({ ms: 0 }) });
      await eventually('ready again once the node is back', async () =>
        (await call(`${relay.url}/health`)).status === 200 ? true : undefined,
      );

      // The database goes away under it.
      await relay.db.close();
      const noDatabase = await call(`${relay.url}/health`);
      expect(noDatabase.status).toBe(503);
      expect(noDatabase.body).toMatchObject({ ok: false, database: false, sender: null });
      expect((await call(`${relay.url}/health/live`)).status).toBe(200);
    } finally {
      await relay.close().catch(() => undefined);
      await dir.remove();
    }
  });

  it('keeps the admin routes behind their token', async () => {
    const dir = await relayDataDir('relay-admin-');
    const token = random(40);
    const relay = await relayAt(dir.path, ['--metrics'], { RELAY_ADMIN_TOKEN: token });
    try {
      expect((await call(`${relay.url}/admin/dead-letters`)).status).toBe(401);
      const wrong = await call(`${relay.url}/admin/dead-letters`, {
        headers: { authorization: `Bearer ${random(40)}` },
      });
      expect(wrong.status).toBe(401);
      const listed = await call(`${relay.url}/admin/dead-letters`, { headers: { authorization: `Bearer ${token}` } });
      expect(listed.body).toEqual({ total: 0, letters: [] });
      const metrics = await fetch(`${relay.url}/metrics`);
      expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await metrics.text();
      expect(text).toMatch(/^# HELP relay_database_up .*\n# TYPE relay_database_up gauge\nrelay_database_up 1$/m);
      // What --active-devices bounds, beside the devices registered (none here).
      expect(text).toMatch(/^relay_devices 0$/m);
      expect(text).toMatch(/^relay_devices_in_memory 0$/m);
      expect(text).toMatch(/^relay_devices_read_back_total 0$/m);
    } finally {
      await relay.close();
      await dir.remove();
    }
  });
});
