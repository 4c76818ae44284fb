/**
 * New devices per client address per hour, counted in the database: one hour for every instance on a PostgreSQL
 * database and across a restart, exact under concurrent registrations, sliding with the clock, counting only devices
 * created, and naming the client by a keyed hash that is forgotten after the hour. Each runs on the embedded database
 * and on a real PostgreSQL server; addresses in X-Forwarded-For are only header text (every request is on loopback).
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import { call, random, relayInProcess, tempDir } from './harness.ts';
import { relayDataDir } from './pglite-template.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

const HOUR = 3_600_000;
const FCM = 'https://fcm.googleapis.com/fcm/send/abc123';
const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};

let devnet: RunningDevnet;
let postgres: RunningPostgres;
let admin: pg.Client;
let clock = Date.parse('2026-11-02T10:00:00Z');
const running = new Set<RunningRelay>();
const dirs: { remove(): Promise<void> }[] = [];

beforeAll(async () => {
  [devnet, postgres] = await Promise.all([startDevnet({ port: 0, blockMs: null, activity: false }), startPostgres()]);
  admin = new pg.Client({ connectionString: postgres.url });
  await admin.connect();
});

afterAll(async () => {
  for (const relay of running) await relay.close();
  await admin?.end();
  await postgres?.stop();
  await devnet?.close();
  for (const dir of dirs) await dir.remove();
});

/** One empty database; `start` runs a relay on it (several at once on PostgreSQL, each an instance of its own). */
interface Place {
  start(name: string, flags: string[]): Promise<RunningRelay>;
}

interface Backend {
  readonly name: string;
  /** How many relays share one database at once: PGlite's directory is one process's. */
  readonly instances: number;
  fresh(): Promise<Place>;
}

/**
 * No relay here sends a push (no block is mined, every endpoint is a made-up FCM one): pushes are posted on the event
 * loop, not on worker threads, which cost a second of CPU each relay to start (push-threads.test proves them).
 */
const startOn = async (dir: string, flags: string[]) => {
  const relay = await relayInProcess(devnet.url, dir, ['--push-threads', '0', ...flags], {}, { now: () => clock });
  running.add(relay);
  return relay;
};

const pglite: Backend = {
  name: 'PGlite',
  instances: 1,
  async fresh() {
    const dir = await relayDataDir('relay-caps-');
    dirs.push(dir);
    return { start: (_name, flags) => startOn(dir.path, flags) };
  },
};

let databases = 0;
const postgresql: Backend = {
  name: 'PostgreSQL',
  instances: 2,
  async fresh() {
    databases += 1;
    await admin.query(`CREATE DATABASE caps_${databases}`);
    const url = postgres.url.replace(/\/postgres$/, `/caps_${databases}`);
    return {
      async start(name, flags) {
        const dir = await tempDir(`relay-caps-${name}-`);
        dirs.push(dir);
        return startOn(dir.path, ['--database-url', url, '--instance', name, ...flags]);
      },
    };
  },
};

const stop = async (relay: RunningRelay) => {
  running.delete(relay);
  await relay.close();
};

const capped = (perHour: number, ...more: string[]) => [
  ...['--trust-proxy', 'loopback', '--max-devices-per-hour', String(perHour)],
  ...more,
];

const principals = () => devnet.node.chain.accounts.all.map((account) => account.address);

/** A PUT of a device from `client` (as a trusted proxy reports it); the same id and secret update it. */
function register(relay: RunningRelay, client: string, device = { id: random(24), secret: random(43) }, count = 1) {
  return call(`${relay.url}/v1/devices/${device.id}`, {
    method: 'PUT',
    secret: device.secret,
    body: {
      subscription: { endpoint: FCM, expirationTime: null, keys },
      watches: principals()
        .slice(0, count)
        .map((principal) => ({ network: 'testnet', principal })),
    },
    headers: { 'x-forwarded-for': client },
  }).then((answer) => ({ ...answer, device }));
}

const statusOf = async (answer: Promise<{ status: number }>) => (await answer).status;

const refusedFor = async (answer: ReturnType<typeof register>, wait: RegExp) => {
  const refused = await answer;
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ error: 'too_many_new_devices' });
  expect(String(refused.body?.['message'])).toMatch(/registered 2 new devices in the last hour, the most this relay/);
  expect(refused.headers.get('retry-after')).toMatch(wait);
};

describe.each([pglite, postgresql])('new devices per client address per hour, on $name', (backend) => {
  it('holds across a restart: the hour is in the database, not in memory', async () => {
    const place = await backend.fresh();
    const first = await place.start('relay-a', capped(2));
    expect(await statusOf(register(first, '198.51.100.1'))).toBe(201);
    expect(await statusOf(register(first, '198.51.100.1'))).toBe(201);
    await stop(first);
    const again = await place.start('relay-a', capped(2));
    await refusedFor(register(again, '198.51.100.1'), /^3\d{3}$/);
    expect(await statusOf(register(again, '198.51.100.2'))).toBe(201);
    await stop(again);
  });

  it('creates exactly the cap when registrations from one address arrive at once, through every instance', async () => {
    const place = await backend.fresh();
    const relays: RunningRelay[] = [];
    for (let index = 0; index < backend.instances; index++) relays.push(await place.start(`relay-${index}`, capped(5)));
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) => register(relays[index % relays.length]!, '203.0.113.9')),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(5);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(refused).toHaveLength(11);
    for (const answer of refused) expect(answer.body).toMatchObject({ error: 'too_many_new_devices' });
    const [row] = await relays[0]!.db.query<{ n: string }>('SELECT count(*) AS n FROM devices');
    expect(Number(row?.n)).toBe(5);
    for (const relay of relays) await stop(relay);
  });

  it('slides with the clock: a device leaves the count an hour after it was created, and a refusal is not counted', async () => {
    const relay = await (await backend.fresh()).start('relay-a', capped(2));
    const start = clock;
    expect(await statusOf(register(relay, '198.51.100.5'))).toBe(201);
    clock = start + HOUR / 2;
    expect(await statusOf(register(relay, '198.51.100.5'))).toBe(201);
    clock = start + (HOUR * 2) / 3;
    // The first leaves at start + 1 h: 20 minutes from now.
    await refusedFor(register(relay, '198.51.100.5'), /^1200$/);
    clock = start + HOUR;
    // The first has left; the refusals before were not counted, so there is room for one.
    expect(await statusOf(register(relay, '198.51.100.5'))).toBe(201);
    // The second leaves at start + 1.5 h.
    await refusedFor(register(relay, '198.51.100.5'), /^1800$/);
    await stop(relay);
  });

  it('counts only devices created: an update, or a new device another cap refused, costs nothing', async () => {
    const relay = await (await backend.fresh()).start('relay-a', capped(2, '--max-new-principals-per-hour', '2'));
    const kept = await register(relay, '198.51.100.6');
    expect(kept.status).toBe(201);
    expect(await statusOf(register(relay, '198.51.100.6', kept.device))).toBe(200);
    expect(await statusOf(register(relay, '198.51.100.6', kept.device, 2))).toBe(200);
    const tooMany = await register(relay, '198.51.100.6', undefined, 3);
    expect(tooMany.status).toBe(429);
    expect(tooMany.body).toMatchObject({ error: 'too_many_new_principals' });
    expect(await statusOf(register(relay, '198.51.100.6'))).toBe(201);
    await refusedFor(register(relay, '198.51.100.6'), /^3600$/);
    await stop(relay);
  });

  it('stores a keyed hash of the client, never its address, and forgets it an hour later', async () => {
    const relay = await (await backend.fresh()).start('relay-a', capped(2));
    expect(await statusOf(register(relay, '198.51.100.7'))).toBe(201);
    expect(await statusOf(register(relay, '2001:db8:7:7::1'))).toBe(201);
    const stored = await relay.db.query<{ client: string }>('SELECT client FROM device_additions');
    expect(stored).toHaveLength(2);
    // 22 characters of base64url: no dot or colon, so no address, and the same length whatever the address.
    for (const { client } of stored) expect(client).toMatch(/^[\w-]{22}$/);
    clock += HOUR;
    await relay.expireDevices();
    expect(await relay.db.query('SELECT client FROM device_additions')).toEqual([]);
    await stop(relay);
  });
});

describe('new devices per client address per hour, across instances on one PostgreSQL', () => {
  it('is one hour for every instance: a second instance does not give an address a second allowance', async () => {
    const place = await postgresql.fresh();
    const [a, b] = [await place.start('relay-a', capped(2)), await place.start('relay-b', capped(2))];
    expect(await statusOf(register(a, '198.51.100.8'))).toBe(201);
    expect(await statusOf(register(b, '198.51.100.8'))).toBe(201);
    await refusedFor(register(a, '198.51.100.8'), /^3\d{3}$/);
    await refusedFor(register(b, '198.51.100.8'), /^3\d{3}$/);
    // Another address has an hour of its own, on either instance.
    expect(await statusOf(register(b, '198.51.100.9'))).toBe(201);
    await stop(a);
    await stop(b);
  });
});
