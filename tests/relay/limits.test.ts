import { relayDataDir } from './pglite-template.ts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { RateLimit } from '../../src/relay/api/rate-limit.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import type { tempDir } from './harness.ts';
import { call, eventually, random, relayInProcess } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

/**
 * Limits behind a reverse proxy: the rate limit and the registration caps key on the client a trusted proxy
 * reports, never on what a client writes itself; each cap answers 429 saying which limit and when to retry.
 * Addresses in X-Forwarded-For are only header text: every request goes to the relay on loopback.
 */
let devnet: RunningDevnet;
let dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
const relays: RunningRelay[] = [];
const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};
const FCM = 'https://fcm.googleapis.com/fcm/send/abc123';

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
});

afterAll(async () => {
  for (const relay of relays) await relay.close();
  await devnet?.close();
  for (const dir of dirs) await dir.remove();
});

/**
 * No relay here sends a push (no block is mined, every endpoint is a made-up FCM one): the pushes are posted on the
 * event loop, not on worker threads, which cost a second of CPU each relay to start (push-threads.test proves them).
 */
const NO_PUSH_THREADS = ['--push-threads', '0'];

const relayOn = (dir: string, flags: string[], now?: () => number): Promise<RunningRelay> =>
  relayInProcess(devnet.url, dir, [...NO_PUSH_THREADS, ...flags], {}, now ? { now } : {});

async function relayWith(flags: string[], now?: () => number): Promise<RunningRelay> {
  const dir = await relayDataDir('relay-limits-');
  dirs = [...dirs, dir];
  const relay = await relayOn(dir.path, flags, now);
  relays.push(relay);
  return relay;
}

const principals = () => devnet.node.chain.accounts.all.map((account) => account.address);
const body = (watched: string[]) => ({
  subscription: { endpoint: FCM, expirationTime: null, keys },
  watches: watched.map((principal) => ({ network: 'testnet', principal })),
});
const from = (client: string) => ({ 'x-forwarded-for': client });

async function statuses(url: string, forwardedFor: string[]): Promise<number[]> {
  const answers: number[] = [];
  for (const client of forwardedFor) answers.push((await call(url, { headers: from(client) })).status);
  return answers;
}

describe('the rate limit behind a proxy', () => {
  it('ignores X-Forwarded-For when no proxy is trusted: a client cannot pick a fresh bucket', async () => {
    const relay = await relayWith(['--rate', '3']);
    const forged = ['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.4', '203.0.113.5'];
    expect(await statuses(`${relay.url}/health`, forged)).toEqual([200, 200, 200, 429, 429]);
  });

  // One relay behind a trusted proxy for the next two: each counts clients of its own (198.51.100.7, .8 and .20,
  // 2001:db8:1:2::/64 and :3::/64), so neither sees the other's buckets.
  let behindProxy: Promise<RunningRelay> | null = null;
  const trusting = () => (behindProxy ??= relayWith(['--rate', '3', '--trust-proxy', 'loopback']));

  it('keys on the right-most address a trusted proxy reports, not on what the client prepended', async () => {
    const url = `${(await trusting()).url}/health`;
    expect(await statuses(url, ['198.51.100.7', '198.51.100.7', '198.51.100.7', '198.51.100.7'])).toEqual([
      200, 200, 200, 429,
    ]);
    // Another client behind the same proxy has its own bucket.
    expect(await statuses(url, ['198.51.100.8'])).toEqual([200]);
    // The limited client writing a header of its own: the proxy appends the real peer, which is what counts.
    expect(await statuses(url, ['192.0.2.99, 198.51.100.7', '10.0.0.1,198.51.100.7'])).toEqual([429, 429]);
    // A trusted hop after the client (a second proxy on loopback) is looked past.
    expect(await statuses(url, ['198.51.100.7, 127.0.0.1'])).toEqual([429]);
  });

  it('counts an IPv6 client by its /64 (a subscriber can take a fresh address per request) and a hop written ip:port as the ip', async () => {
    const url = `${(await trusting()).url}/health`;
    expect(
      await statuses(url, ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::9', '2001:db8:1:2::abcd']),
    ).toEqual([200, 200, 200, 429]);
    // The next /64 is another subscriber.
    expect(await statuses(url, ['2001:db8:1:3::1'])).toEqual([200]);
    expect(
      await statuses(url, ['198.51.100.20:4711', '198.51.100.20:4712', '198.51.100.20', '[::ffff:198.51.100.20]:80']),
    ).toEqual([200, 200, 200, 429]);
  });

  it('refuses a --trust-proxy entry that is not an address, a range or "loopback"', async () => {
    await expect(relayWith(['--trust-proxy', 'my-proxy.example'])).rejects.toThrow(
      /--trust-proxy: "my-proxy.example" is not an IP address, a CIDR range/,
    );
  });
});

describe('registration caps', () => {
  let relay: RunningRelay;
  const secrets = new Map<string, string>();
  const put = (id: string, client: string, watched: string[]) => {
    const secret = secrets.get(id) ?? random(43);
    secrets.set(id, secret);
    return call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret, body: body(watched), headers: from(client) });
  };
  const ids = Array.from({ length: 6 }, () => random(24));

  beforeAll(async () => {
    relay = await relayWith([
      ...['--trust-proxy', 'loopback', '--max-devices-per-hour', '2'],
      ...['--max-devices', '4', '--max-principals', '3'],
    ]);
  });

  it('caps new devices per client address per hour, and says when to retry', async () => {
    const [p0] = principals();
    expect((await put(ids[0]!, '198.51.100.1', [p0!])).status).toBe(201);
    expect((await put(ids[1]!, '198.51.100.1', [p0!])).status).toBe(201);
    const third = await put(ids[2]!, '198.51.100.1', [p0!]);
    expect(third.status).toBe(429);
    expect(third.body).toMatchObject({ error: 'too_many_new_devices' });
    expect(String(third.body?.['message'])).toMatch(/registered 2 new devices in the last hour.*try again in \d+ s/);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3500);
    // Updating a device it already has is not a new device; another client has its own hour.
    expect((await put(ids[0]!, '198.51.100.1', [p0!])).status).toBe(200);
    expect((await put(ids[2]!, '198.51.100.2', [p0!])).status).toBe(201);
  });

  it('caps the devices in all', async () => {
    const [p0] = principals();
    expect((await put(ids[3]!, '198.51.100.3', [p0!])).status).toBe(201);
    const full = await put(ids[4]!, '198.51.100.4', [p0!]);
    expect(full.status).toBe(429);
    expect(full.body).toMatchObject({ error: 'relay_full_devices' });
    expect(String(full.body?.['message'])).toMatch(/serves 4 devices, its limit; try again in an hour/);
    expect(full.headers.get('retry-after')).toBe('3600');
    // Nothing of the refused device was stored.
    const check = await call(`${relay.url}/v1/devices/${ids[4]}/alerts`, { secret: secrets.get(ids[4]!)! });
    expect(check.status).toBe(401);
  });

  it('caps the distinct principals followed, and keeps the refused device as it was', async () => {
    const [p0, p1, p2, p3] = principals();
    expect((await put(ids[0]!, '198.51.100.1', [p0!, p1!, p2!])).status).toBe(200);
    // Shared principals count once: another device may watch the same three.
    expect((await put(ids[1]!, '198.51.100.1', [p1!, p2!])).status).toBe(200);
    const over = await put(ids[1]!, '198.51.100.1', [p3!]);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ error: 'relay_full_principals' });
    expect(String(over.body?.['message'])).toMatch(/follows at most 3 addresses and this list would take it to 4/);
    const kept = await relay.db.query<{ principal: string }>(
      'SELECT principal FROM watches WHERE device_id = $1 ORDER BY principal',
      [ids[1]],
    );
    expect(kept.map((row) => row.principal)).toEqual([p1, p2].sort());
  });

  it('never refuses a list that adds no principal nobody follows, even over the cap (a lowered cap, a new subscription)', async () => {
    const [p0, p1, p2, p3] = principals();
    const dir = await relayDataDir('relay-limits-');
    dirs = [...dirs, dir];
    const first = await relayOn(dir.path, ['--max-principals', '4']);
    const secret = random(43);
    const id = random(24);
    const putTo = (url: string, watched: string[]) =>
      call(`${url}/v1/devices/${id}`, { method: 'PUT', secret, body: body(watched) });
    expect((await putTo(first.url, [p0!, p1!, p2!, p3!])).status).toBe(201);
    await first.close();
    // The operator lowers the cap below what is already followed.
    const lowered = await relayOn(dir.path, ['--max-principals', '2']);
    relays.push(lowered);
    expect((await putTo(lowered.url, [p0!, p1!, p2!, p3!])).status).toBe(200);
    expect((await putTo(lowered.url, [p0!, p1!, p2!])).status).toBe(200);
    // A principal only this device followed, dropped, may come back while the total stays over: that adds one.
    const back = await putTo(lowered.url, [p0!, p1!, p2!, p3!]);
    expect(back.status).toBe(429);
    expect(back.body).toMatchObject({ error: 'relay_full_principals' });
  });
});

describe('the rate limit over a sliding minute', () => {
  it('lets no more than the rate through across the edge of a minute', () => {
    let clock = 0;
    const limit = new RateLimit(10, () => clock);
    clock = 59_000;
    for (let request = 0; request < 10; request++) expect(limit.take('client')).toBe(0);
    // A fixed window opened at 0 would start afresh at 60 s and let ten more through two seconds later.
    clock = 61_000;
    expect(limit.take('client')).toBe(59);
    // Those ten were counted in the slot from 55 s: they leave the window when 120 s begins.
    clock = 119_999;
    expect(limit.take('client')).toBe(1);
    clock = 120_000;
    for (let request = 0; request < 10; request++) expect(limit.take('client')).toBe(0);
    expect(limit.take('client')).toBeGreaterThan(0);
    expect(limit.take('other')).toBe(0);
  });

  it('never lets more than the rate through in any 60 s, and forgets idle clients', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 300_000 }), { maxLength: 200 }), (offsets) => {
        let clock = 0;
        const limit = new RateLimit(7, () => clock);
        const accepted: number[] = [];
        for (const at of [...offsets].sort((a, b) => a - b)) {
          clock = at;
          if (limit.take('client') === 0) accepted.push(at);
        }
        for (const [index, at] of accepted.entries())
          expect(accepted.filter((other, j) => j >= index && other < at + 60_000).length).toBeLessThanOrEqual(7);
        clock = 400_000;
        limit.take('someone else');
        expect(limit.size).toBe(1);
      }),
    );
  });
});

describe('new principals per device per hour', () => {
  let clock = Date.parse('2026-11-02T10:00:00Z');
  let relay: RunningRelay;
  const id = random(24);
  const secret = random(43);
  const put = (watched: string[]) =>
    call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret, body: body(watched) });

  beforeAll(async () => {
    relay = await relayWith(['--max-new-principals-per-hour', '3'], () => clock);
  });

  it('lets a device edit its list freely within its cap, and refuses a churn of new ones with Retry-After', async () => {
    const [p0, p1, p2, p3, p4] = principals();
    expect((await put([p0!, p1!, p2!])).status).toBe(201);
    clock += 60_000;
    // Removing, keeping and reordering add nothing.
    expect((await put([p0!])).status).toBe(200);
    expect((await put([p0!])).status).toBe(200);
    // Bringing one back is one more new principal in the hour: 4 > 3.
    const churn = await put([p0!, p1!]);
    expect(churn.status).toBe(429);
    expect(churn.body).toMatchObject({ error: 'too_many_new_principals' });
    expect(String(churn.body?.['message'])).toMatch(
      /adds 1 address this device does not follow, and it added 3 in the last hour; .* at most 3 new addresses a device an hour .*try again in 3540 s/,
    );
    expect(churn.headers.get('retry-after')).toBe('3540');
    // The refused list stored nothing: the device still follows p0 alone.
    const kept = await relay.db.query<{ principal: string }>('SELECT principal FROM watches WHERE device_id = $1', [
      id,
    ]);
    expect(kept.map((row) => row.principal)).toEqual([p0]);
    // An hour after the first list, its three additions leave the window.
    clock += 3_540_000;
    expect((await put([p0!, p3!, p4!, p1!])).status).toBe(200);
    const whole = await put([p0!, p3!, p4!, p1!, p2!]);
    expect(whole.status).toBe(429);
    // The hourly sweep drops counts an hour old, of devices that added nothing since.
    const counts = async () => (await relay.db.query('SELECT 1 FROM principal_additions')).length;
    expect(await counts()).toBe(1);
    clock += 3_600_000;
    await relay.expireDevices();
    expect(await counts()).toBe(0);
  });
});

describe('devices expire', () => {
  let clock = Date.parse('2026-11-02T10:00:00Z');
  let relay: RunningRelay;
  const DAY = 86_400_000;

  beforeAll(async () => {
    relay = await relayWith(['--device-max-idle-days', '30'], () => clock);
  });

  const register = (id: string, secret: string, expirationTime: number | null) =>
    call(`${relay.url}/v1/devices/${id}`, {
      method: 'PUT',
      secret,
      body: { ...body([principals()[0]!]), subscription: { endpoint: FCM, expirationTime, keys } },
    });
  const catchUp = (id: string, secret: string) => call(`${relay.url}/v1/devices/${id}/alerts`, { secret });
  const watchesOf = async (id: string) =>
    (await relay.db.query('SELECT 1 FROM watches WHERE device_id = $1', [id])).length;

  it("forgets a device once its push subscription's expirationTime has passed, with its watches", async () => {
    const [lasting, ending] = [random(24), random(24)];
    const [lastingSecret, endingSecret] = [random(43), random(43)];
    expect((await register(lasting, lastingSecret, null)).status).toBe(201);
    expect((await register(ending, endingSecret, clock + 60_000)).status).toBe(201);
    expect(await relay.expireDevices()).toBe(0);
    clock += 60_000;
    expect(await relay.expireDevices()).toBe(1);
    expect((await catchUp(ending, endingSecret)).status).toBe(401);
    expect(await watchesOf(ending)).toBe(0);
    expect((await catchUp(lasting, lastingSecret)).status).toBe(200);
  });

  it('forgets a device that has not checked in for the idle limit; a catch-up or registration is a check-in', async () => {
    const [idle, active] = [random(24), random(24)];
    const [idleSecret, activeSecret] = [random(43), random(43)];
    expect((await register(idle, idleSecret, null)).status).toBe(201);
    expect((await register(active, activeSecret, null)).status).toBe(201);
    clock += 29 * DAY;
    expect((await catchUp(active, activeSecret)).status).toBe(200);
    clock += DAY;
    await relay.expireDevices();
    expect((await catchUp(idle, idleSecret)).status).toBe(401);
    expect(await watchesOf(idle)).toBe(0);
    expect((await catchUp(active, activeSecret)).status).toBe(200);
    clock += 30 * DAY;
    await relay.expireDevices();
    expect((await catchUp(active, activeSecret)).status).toBe(401);
    // Nobody follows the principal any more: the engine lets it go.
    await eventually('the engine to follow no principal', async () =>
      relay.engine.health().testnet?.principals === 0 ? true : undefined,
    );
  });
});

describe('caps under concurrent registrations (PostgreSQL, several connections)', () => {
  let postgres: RunningPostgres;
  let relay: RunningRelay;

  beforeAll(async () => {
    postgres = await startPostgres();
    const dir = await relayDataDir('relay-limits-');
    dirs = [...dirs, dir];
    relay = await relayOn(dir.path, [
      ...['--database-url', postgres.url, '--trust-proxy', 'loopback'],
      ...['--max-devices', '5', '--max-principals', '3'],
    ]);
  });

  afterAll(async () => {
    await relay?.close();
    await postgres?.stop();
  });

  const register = (principal: string, client: string) => {
    const device = { id: random(24), secret: random(43) };
    return call(`${relay.url}/v1/devices/${device.id}`, {
      method: 'PUT',
      secret: device.secret,
      body: body([principal]),
      headers: from(client),
    }).then((answer) => ({ ...device, status: answer.status }));
  };

  it('never takes more devices than the cap, however many register at once', async () => {
    const [p0] = principals();
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, index) => register(p0!, `198.51.100.${index + 1}`)),
    );
    const created = answers.filter((answer) => answer.status === 201);
    expect(created).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(11);
    const [row] = await relay.db.query<{ n: string }>('SELECT count(*) AS n FROM devices');
    expect(Number(row?.n)).toBe(5);
    for (const { id, secret } of created)
      expect((await call(`${relay.url}/v1/devices/${id}`, { method: 'DELETE', secret })).status).toBe(204);
  });

  it('never follows more principals than the cap when lists arrive at once', async () => {
    const answers = await Promise.all(
      principals()
        .slice(1, 6)
        .map((principal, index) => register(principal, `203.0.113.${index + 1}`)),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(3);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(2);
    const [row] = await relay.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM (SELECT DISTINCT network, principal FROM watches) AS followed',
    );
    expect(Number(row?.n)).toBe(3);
  });
});
