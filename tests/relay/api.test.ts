import { relayDataDir } from './pglite-template.ts';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { createApiServer } from '../../src/relay/api/server.ts';
import type { RunningRelay } from '../../src/relay/relay.ts';
import type { tempDir } from './harness.ts';
import { call, random, rawGet, relayInProcess } from './harness.ts';

let devnet: RunningDevnet;
let relay: RunningRelay;
let dir: Awaited<ReturnType<typeof tempDir>>;
let principal: string;
const keys = {
  p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
  auth: 'tBHItJI5svbpez7KI4CCXg',
};
const FCM = 'https://fcm.googleapis.com/fcm/send/abc123';

beforeAll(async () => {
  dir = await relayDataDir('relay-api-');
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  relay = await relayInProcess(devnet.url, dir.path, ['--app-origins', 'http://127.0.0.1:4173', '--rate', '1000']);
  principal = devnet.node.chain.accounts.all[0]!.address;
});

afterAll(async () => {
  await relay?.close();
  await devnet?.close();
  await dir?.remove();
});

/** Sends `text` as it is on a fresh connection; the answer's status and JSON body, read until the relay closes. */
function rawExchange(origin: string, text: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = connect(Number(port), hostname, () => socket.write(text));
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n', 2);
      resolve({ status: Number(head.split(' ')[1]), body: body ? (JSON.parse(body) as unknown) : null });
    });
  });
}

const device = (endpoint = FCM, watches: unknown[] = [{ network: 'testnet', principal }]) => ({
  subscription: { endpoint, expirationTime: null, keys },
  watches,
});

describe('the relay API', () => {
  it('serves its health and VAPID public key', async () => {
    const health = await call(`${relay.url}/health`);
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ok: true });
    const key = await call(`${relay.url}/v1/vapid-public-key`);
    expect(key.body?.['publicKey']).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it('reads the path as a path: a doubled slash is no host, dot segments and encoded slashes are refused', async () => {
    for (const path of [
      '//x/health',
      '//health',
      '/./health',
      '/v1/../health',
      '/%2e%2e/health',
      '/v1%2fvapid-public-key',
      // Escaped letters and digits: a router that decodes would route these to a path nobody sent.
      '/h%65alth',
      '/v1/vapid-public-ke%79',
      `/v1/devices/%41${random(23)}/alerts`,
    ]) {
      const answer = await rawGet(relay.url, path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({
        error: 'bad_path',
        message: expect.stringMatching(/^the path must not/),
      });
    }
  });

  it('answers in its own words where the framework would use its own: escapes, targets, ids, methods, bodies', async () => {
    // Read before any router sees them: a broken escape or an absolute target is a bad path, not a framework error.
    for (const path of ['/v1/%zz', '/health%', 'http://x/health']) {
      const answer = await rawGet(relay.url, path);
      expect(answer.status, path).toBe(400);
      expect(JSON.parse(answer.body), path).toMatchObject({ error: 'bad_path' });
    }
    // A long id is the route's 400, not a 404 from a router that cut the parameter short.
    const long = await call(`${relay.url}/v1/devices/${'a'.repeat(300)}`, { method: 'PUT', secret: random(43) });
    expect(long).toMatchObject({ status: 400, body: { error: 'bad_device_id' } });
    // A route answers the methods it names: no HEAD made up from a GET.
    expect((await fetch(`${relay.url}/health`, { method: 'HEAD' })).status).toBe(404);
    const patched = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PATCH' });
    expect(patched).toMatchObject({ status: 405, body: { error: 'method_not_allowed' } });
    // No body is read before the secret: a DELETE's body is never looked at, a PUT without a bearer is a 401 first.
    const text = { 'content-type': 'text/plain' };
    const deleted = await call(`${relay.url}/v1/devices/${random(24)}`, {
      method: 'DELETE',
      secret: random(43),
      raw: 'x',
      headers: text,
    });
    expect(deleted).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    const anonymous = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PUT', raw: 'x', headers: text });
    expect(anonymous).toMatchObject({ status: 401, body: { error: 'unauthorized' } });
    const empty = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PUT', secret: random(43), raw: '' });
    expect(empty).toMatchObject({ status: 400, body: { error: 'malformed_json' } });
    const untyped = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PUT', secret: random(43) });
    expect(untyped).toMatchObject({ status: 415, body: { error: 'unsupported_media_type' } });
    // What Node cannot read as HTTP: refused in the relay's words too, before any route.
    const unreadable = await rawExchange(relay.url, 'GET /health HTTP/1.1\r\nhost: x\r\nno colon here\r\n\r\n');
    expect(unreadable).toMatchObject({ status: 400, body: { error: 'bad_request' } });
    const huge = await rawExchange(
      relay.url,
      `GET /health HTTP/1.1\r\nhost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(huge).toMatchObject({ status: 431, body: { error: 'headers_too_large' } });
  });

  it('creates a device, then replaces it; another secret gets 401 and learns nothing', async () => {
    const id = random(24);
    const secret = random(43);
    const created = await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret, body: device() });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ deviceId: id, watches: 1, cursor: '0', unwatched: [] });
    const replaced = await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret, body: device(FCM, []) });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ watches: 0 });

    const stranger = random(43);
    const unknownId = random(24);
    const answers = await Promise.all([
      call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret: stranger, body: device() }),
      call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret: stranger, raw: '{not json' }),
      call(`${relay.url}/v1/devices/${id}/alerts`, { secret: stranger }),
      call(`${relay.url}/v1/devices/${id}`, { method: 'DELETE', secret: stranger }),
      call(`${relay.url}/v1/devices/${unknownId}/alerts`, { secret: stranger }),
      call(`${relay.url}/v1/devices/${unknownId}`, { method: 'DELETE', secret: stranger }),
    ]);
    // The same answer whether or not the id exists.
    for (const answer of answers.slice(2)) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(answers[2]!.body);
    }
    expect(answers[0]!.status).toBe(401);
    expect(answers[1]!.status).toBe(401);
    expect(answers[2]!.body?.['error']).toBe('unauthorized');
    // The device is untouched.
    const alerts = await call(`${relay.url}/v1/devices/${id}/alerts`, { secret });
    expect(alerts.status).toBe(200);
    expect(alerts.body).toEqual({ alerts: [], next: '0', more: false });
    expect((await call(`${relay.url}/v1/devices/${id}`, { method: 'DELETE', secret })).status).toBe(204);
    expect((await call(`${relay.url}/v1/devices/${id}/alerts`, { secret })).status).toBe(401);
  });

  it('accepts a list mixing networks it follows and one it does not: watches what it can, names the rest and why', async () => {
    const id = random(24);
    const secret = random(43);
    const mainnet = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
    const mixed = device(FCM, [
      { network: 'mainnet', principal: mainnet },
      { network: 'testnet', principal },
    ]);
    const answer = await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret, body: mixed });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      deviceId: id,
      watches: 1,
      cursor: '0',
      unwatched: [
        { network: 'mainnet', principal: mainnet, reason: 'this relay follows no mainnet node (it follows testnet)' },
      ],
    });
    // What it stored and follows is the testnet address alone (the devnet's ledger is the truth of what it follows).
    const stored = await relay.db.query<{ principal: string }>('SELECT principal FROM watches WHERE device_id = $1', [
      id,
    ]);
    expect(stored.map((row) => row.principal)).toEqual([principal]);
    await expect.poll(() => relay.engine.health().testnet?.principals).toBeGreaterThanOrEqual(1);
    expect(relay.engine.health().mainnet).toBeUndefined();
    expect((await call(`${relay.url}/v1/devices/${id}`, { method: 'DELETE', secret })).status).toBe(204);
  });

  it('refuses requests without a well-formed bearer secret or device id', async () => {
    const id = random(24);
    const missing = await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', body: device() });
    expect(missing.status).toBe(401);
    expect(String(missing.body?.['message'])).toMatch(/Authorization: Bearer/);
    const short = await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', secret: 'short', body: device() });
    expect(short.status).toBe(401);
    const badId = await call(`${relay.url}/v1/devices/x`, { method: 'PUT', secret: random(43), body: device() });
    expect(badId.status).toBe(400);
    expect(badId.body?.['error']).toBe('bad_device_id');
  });

  it("answers in docs/relay.md's order: route and id shape, then 401, then anything about the body or the device", async () => {
    const id = random(24);
    const plain = { 'content-type': 'text/plain' };
    const answers = {
      noRoute: await call(`${relay.url}/v1/nothing`),
      badMethod: await call(`${relay.url}/v1/devices/${id}`, { method: 'POST' }),
      badId: await call(`${relay.url}/v1/devices/x`, { method: 'PUT', raw: 'x', headers: plain }),
      noSecretWrongType: await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', raw: 'x', headers: plain }),
      noSecretTooLarge: await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', raw: 'x'.repeat(300 * 1024) }),
      noSecretBadBody: await call(`${relay.url}/v1/devices/${id}`, { method: 'PUT', raw: '{' }),
      wrongSecretBadCursor: await call(`${relay.url}/v1/devices/${id}/alerts?after=x`, { secret: random(43) }),
      secretWrongType: await call(`${relay.url}/v1/devices/${id}`, {
        method: 'PUT',
        secret: random(43),
        raw: 'x',
        headers: plain,
      }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([what, answer]) => [what, answer.body?.['error']]))).toEqual(
      {
        noRoute: 'not_found',
        badMethod: 'method_not_allowed',
        badId: 'bad_device_id',
        noSecretWrongType: 'unauthorized',
        noSecretTooLarge: 'unauthorized',
        noSecretBadBody: 'unauthorized',
        wrongSecretBadCursor: 'unauthorized',
        secretWrongType: 'unsupported_media_type',
      },
    );
  });

  it.each([
    ['plain http', 'http://fcm.googleapis.com/fcm/send/x', /must be https/],
    ['a host that is no push service', 'https://example.com/push/x', /not a known browser push service/],
    ['a loopback address', 'https://127.0.0.1/push', /private, loopback or link-local/],
    ['a private address', 'https://10.1.2.3/push', /private, loopback or link-local/],
    ['a link-local IPv6 address', 'https://[fe80::1]/push', /private, loopback or link-local/],
    ['a look-alike host', 'https://fcm.googleapis.com.evil.test/x', /not a known browser push service/],
    ['the stand-in not allowed', 'http://localhost:8990/notify/x', /must be https/],
    ['credentials in the URL', 'https://user:pw@fcm.googleapis.com/x', /user name or password/],
  ])('refuses a subscription endpoint on %s', async (_what, endpoint, message) => {
    const answer = await call(`${relay.url}/v1/devices/${random(24)}`, {
      method: 'PUT',
      secret: random(43),
      body: device(endpoint),
    });
    expect(answer.status).toBe(400);
    expect(answer.body?.['error']).toBe('invalid_device');
    expect(String(answer.body?.['message'])).toMatch(message);
  });

  it('accepts the push services of the browsers', async () => {
    for (const endpoint of [
      FCM,
      'https://updates.push.services.mozilla.com/wpush/v2/x',
      'https://wns2-db5p.notify.windows.com/w/?token=x',
      'https://web.push.apple.com/QGx',
    ]) {
      const answer = await call(`${relay.url}/v1/devices/${random(24)}`, {
        method: 'PUT',
        secret: random(43),
        body: device(endpoint, []),
      });
      expect(answer.status, endpoint).toBe(201);
    }
  });

  it.each([
    ['a body that is not JSON', { raw: '{"subscription":' }, 400, 'malformed_json'],
    ['a body over 256 kB', { raw: JSON.stringify({ pad: 'x'.repeat(300 * 1024) }) }, 413, 'body_too_large'],
    ['no JSON content type', { raw: 'x', headers: { 'content-type': 'text/plain' } }, 415, 'unsupported_media_type'],
  ])('refuses %s with a clear 4xx', async (_what, init, status, code) => {
    const answer = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PUT', secret: random(43), ...init });
    expect(answer.status).toBe(status);
    expect(answer.body?.['error']).toBe(code);
    expect(String(answer.body?.['message']).length).toBeGreaterThan(10);
  });

  const TESTNET = 'ST000000000000000000002AMW42H';
  const MAINNET = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
  const watching = (watch: unknown) => device(FCM, [{ network: 'testnet', principal: TESTNET }, watch]);
  const subscribed = (subscription: unknown) => ({ subscription, watches: [] });
  it.each([
    ['', 'a list', [], /^expected a JSON object with "subscription" and "watches"$/],
    [
      'subscription',
      'no subscription',
      { watches: [] },
      /^subscription: is missing; expected the object PushSubscription/,
    ],
    ['subscription', 'a string', subscribed('x'), /^subscription: expected the object PushSubscription\.toJSON\(\)/],
    ['subscription/endpoint', 'a number', subscribed({ endpoint: 5, keys }), /expected the push service URL/],
    ['subscription/endpoint', 'ftp', subscribed({ endpoint: 'ftp://x/y', keys }), /expected the push service URL/],
    [
      'subscription/endpoint',
      'too long',
      subscribed({ endpoint: `${FCM}/${'a'.repeat(1024)}`, keys }),
      /at most 1,024/,
    ],
    [
      'subscription/endpoint',
      'no push service',
      subscribed({ endpoint: 'https://example.com/x', keys }),
      /not a known browser push service/,
    ],
    [
      'subscription/expirationTime',
      'a string',
      subscribed({ endpoint: FCM, keys, expirationTime: 'soon' }),
      /epoch milliseconds, or null/,
    ],
    [
      'subscription/keys',
      'no keys',
      subscribed({ endpoint: FCM }),
      /is missing; expected an object with "p256dh" and "auth"/,
    ],
    [
      'subscription/keys/p256dh',
      'not base64url',
      subscribed({ endpoint: FCM, keys: { ...keys, p256dh: '!'.repeat(87) } }),
      /base64url P-256 public key/,
    ],
    [
      'subscription/keys/auth',
      'too short',
      subscribed({ endpoint: FCM, keys: { ...keys, auth: 'abc' } }),
      /16-byte auth secret/,
    ],
    [
      'watches',
      'an object',
      { ...device(), watches: {} },
      /^watches: expected an array of \{ network, principal, rules\? \}$/,
    ],
    ['watches/1', 'a string', watching(TESTNET), /expected an object \{ network, principal, rules\? \}/],
    [
      'watches/1/network',
      'devnet',
      watching({ network: 'devnet', principal: TESTNET }),
      /expected one of "mainnet", "testnet"/,
    ],
    ['watches/1/principal', 'missing', watching({ network: 'testnet' }), /is missing; expected a Stacks address/],
    ['watches/1/principal', 'a number', watching({ network: 'testnet', principal: 7 }), /expected a Stacks address/],
    [
      'watches/1/principal',
      'mainnet on testnet',
      watching({ network: 'testnet', principal: MAINNET }),
      /^watches\/1\/principal: not a testnet address \(ST or SN\): it is a mainnet one$/,
    ],
    ['watches/1/principal', 'a BNS name', watching({ network: 'testnet', principal: 'alice.btc' }), /BNS name/],
    [
      'watches/1/principal',
      'lowercase',
      watching({ network: 'testnet', principal: TESTNET.toLowerCase() }),
      /^watches\/1\/principal: not in canonical form; send ST000000000000000000002AMW42H$/,
    ],
    [
      'watches/1',
      'a repeat',
      watching({ network: 'testnet', principal: TESTNET }),
      /^watches\/1: repeats ST000000000000000000002AMW42H \(watches\/0\); list each address once$/,
    ],
    [
      'watches/0/rules',
      'a list',
      device(FCM, [{ network: 'testnet', principal: TESTNET, rules: [] }]),
      /^watches\/0\/rules: expected an object of alert rules \(muted, incoming/,
    ],
    [
      'watches/0/rules/muted',
      'a string',
      device(FCM, [{ network: 'testnet', principal: TESTNET, rules: { muted: 'yes' } }]),
      /^watches\/0\/rules\/muted: expected true or false$/,
    ],
    [
      'watches/0/rules/loud',
      'an unknown rule',
      device(FCM, [{ network: 'testnet', principal: TESTNET, rules: { loud: true } }]),
      /is not expected here; expected only muted, incoming/,
    ],
    [
      'watches/0/rules/minimums',
      'a list',
      device(FCM, [{ network: 'testnet', principal: TESTNET, rules: { minimums: [] } }]),
      /expected an object of asset → decimal string/,
    ],
    [
      'watches/0/rules/minimums/STX',
      'a number',
      device(FCM, [{ network: 'testnet', principal: TESTNET, rules: { minimums: { STX: 5 } } }]),
      /expected a decimal string of base units, such as "1000000"/,
    ],
  ])('refuses a bad %s (%s) with a 400 naming that field', async (field, _what, body, message) => {
    const answer = await call(`${relay.url}/v1/devices/${random(24)}`, { method: 'PUT', secret: random(43), body });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ error: 'invalid_device', field });
    const text = String(answer.body?.['message']);
    if (field) expect(text.startsWith(`${field}: `), text).toBe(true);
    expect(text).toMatch(message);
  });

  it('refuses a p256dh that is not a point on P-256, saying what is expected', async () => {
    const point = Buffer.from(keys.p256dh, 'base64url');
    const offCurve = Buffer.from(point);
    offCurve[64]! ^= 1;
    const compressed = Buffer.concat([Buffer.from([2]), point.subarray(1, 33)]);
    const padded = Buffer.concat([Buffer.from([5]), point.subarray(1)]);
    for (const [bad, said] of [
      [offCurve, /not a point on the P-256 curve/],
      [padded, /65 bytes starting with 0x04 \(got 65 bytes starting with 0x05\)/],
      [Buffer.concat([compressed, compressed.subarray(0, 27)]), /got 60 bytes starting with 0x02/],
    ] as const) {
      const answer = await call(`${relay.url}/v1/devices/${random(24)}`, {
        method: 'PUT',
        secret: random(43),
        body: { ...device(), subscription: { endpoint: FCM, keys: { ...keys, p256dh: bad.toString('base64url') } } },
      });
      expect(answer.status).toBe(400);
      expect(answer.body?.['error']).toBe('invalid_device');
      expect(answer.body?.['message']).toMatch(said);
    }
  });

  it('refuses more than 1,000 watches', async () => {
    const watches = Array.from({ length: 1001 }, () => ({ network: 'testnet', principal }));
    const answer = await call(`${relay.url}/v1/devices/${random(24)}`, {
      method: 'PUT',
      secret: random(43),
      body: device(FCM, watches),
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      field: 'watches',
      message: 'watches: has 1,001 entries; at most 1,000 are allowed',
    });
  });

  it('answers CORS only for the configured app origins', async () => {
    const allowed = await call(`${relay.url}/health`, { headers: { origin: 'http://127.0.0.1:4173' } });
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://127.0.0.1:4173');
    const other = await call(`${relay.url}/health`, { headers: { origin: 'https://evil.test' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('the relay API before the relay is ready', () => {
  it('answers every request 503 "starting" with Retry-After, in its own shape', async () => {
    const app = createApiServer(() => null);
    try {
      for (const [method, url] of [
        ['GET', '/health'],
        ['PUT', `/v1/devices/${random(24)}`],
        ['OPTIONS', '/v1/vapid-public-key'],
        ['GET', '/nowhere'],
      ] as const) {
        const answer = await app.inject({ method, url });
        expect(answer.statusCode, `${method} ${url}`).toBe(503);
        expect(answer.headers['retry-after']).toBe('2');
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
        expect(answer.json()).toEqual({ error: 'starting', message: 'the relay is starting' });
      }
    } finally {
      await app.close();
    }
  });
});

describe('the relay API limits', () => {
  it('answers 429 with Retry-After past the requests per minute of one address', async () => {
    const limited = await relayInProcess(devnet.url, (await relayDataDir('relay-rate-')).path, ['--rate', '5']);
    try {
      const answers = [];
      for (let i = 0; i < 7; i++) answers.push(await call(`${limited.url}/health`));
      expect(answers.slice(0, 5).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
      expect(answers[5]!.status).toBe(429);
      expect(Number(answers[5]!.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(answers[5]!.body?.['error']).toBe('rate_limited');
      // The limit comes first: a device request without a secret is refused by it too, not with 401.
      expect((await call(`${limited.url}/v1/devices/${random(24)}/alerts`)).status).toBe(429);
    } finally {
      await limited.close();
    }
  });

  it('allows a stand-in push service that RELAY_PUSH_ALLOW names', async () => {
    const allowing = await relayInProcess(devnet.url, (await relayDataDir('relay-allow-')).path, [
      '--push-allow',
      'http://localhost:8990,http://push_stand_in:8990',
    ]);
    try {
      const ok = await call(`${allowing.url}/v1/devices/${random(24)}`, {
        method: 'PUT',
        secret: random(43),
        body: device('http://localhost:8990/notify/abc', []),
      });
      expect(ok.status).toBe(201);
      // A container's host name, "_" and all, as --push-allow named it.
      const underscored = await call(`${allowing.url}/v1/devices/${random(24)}`, {
        method: 'PUT',
        secret: random(43),
        body: device('http://push_stand_in:8990/notify/abc', []),
      });
      expect(underscored.status).toBe(201);
      const otherPort = await call(`${allowing.url}/v1/devices/${random(24)}`, {
        method: 'PUT',
        secret: random(43),
        body: device('http://localhost:8991/notify/abc', []),
      });
      expect(otherPort.status).toBe(400);
    } finally {
      await allowing.close();
    }
  });
});
