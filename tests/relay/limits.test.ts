import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import { call, random, relayInProcess, tempDir } from './harness.ts';

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

async function relayWith(flags: string[]): Promise<RunningRelay> {
  const dir = await tempDir('relay-limits-');
  dirs = [...dirs, dir];
  const relay = await relayInProcess(devnet.url, dir.path, flags);
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

  it('keys on the right-most address a trusted proxy reports, not on what the client prepended', async () => {
    const relay = await relayWith(['--rate', '3', '--trust-proxy', 'loopback']);
    const url = `${relay.url}/health`;
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
    const relay = await relayWith(['--rate', '3', '--trust-proxy', 'loopback']);
    const url = `${relay.url}/health`;
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
    const dir = await tempDir('relay-limits-');
    dirs = [...dirs, dir];
    const first = await relayInProcess(devnet.url, dir.path, ['--max-principals', '4']);
    const secret = random(43);
    const id = random(24);
    const putTo = (url: string, watched: string[]) =>
      call(`${url}/v1/devices/${id}`, { method: 'PUT', secret, body: body(watched) });
    expect((await putTo(first.url, [p0!, p1!, p2!, p3!])).status).toBe(201);
    await first.close();
    // The operator lowers the cap below what is already followed.
    const lowered = await relayInProcess(devnet.url, dir.path, ['--max-principals', '2']);
    relays.push(lowered);
    expect((await putTo(lowered.url, [p0!, p1!, p2!, p3!])).status).toBe(200);
    expect((await putTo(lowered.url, [p0!, p1!, p2!])).status).toBe(200);
    // A principal only this device followed, dropped, may come back while the total stays over: that adds one.
    const back = await putTo(lowered.url, [p0!, p1!, p2!, p3!]);
    expect(back.status).toBe(429);
    expect(back.body).toMatchObject({ error: 'relay_full_principals' });
  });
});
