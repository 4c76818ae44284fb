import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { RelayClient, RelayError } from '../../src/chain/page/relay-client.ts';
import { readRuntimeConfig } from '../../src/chain/runtime-config.ts';

const BASE = 'http://127.0.0.1:3990';
const DEVICE = { id: 'd'.repeat(22), secret: 's'.repeat(43) };
const PRINCIPAL = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const server = setupServer();
const seen: { method: string; url: string; auth: string | null; body: unknown }[] = [];

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  seen.length = 0;
});
afterAll(() => server.close());

const record = async (request: Request) =>
  seen.push({
    method: request.method,
    url: request.url,
    auth: request.headers.get('authorization'),
    body: request.method === 'PUT' ? await request.json() : null,
  });

describe('relay client', () => {
  it('registers, reads the feed after a cursor and deletes, with the device’s secret', async () => {
    server.use(
      http.put(`${BASE}/v1/devices/:id`, async ({ request }) => {
        await record(request);
        return HttpResponse.json({ deviceId: DEVICE.id, watches: 1, cursor: '42' }, { status: 201 });
      }),
      http.get(`${BASE}/v1/devices/:id/alerts`, async ({ request }) => {
        await record(request);
        return HttpResponse.json({ alerts: [], next: '42', more: false });
      }),
      http.delete(`${BASE}/v1/devices/:id`, async ({ request }) => {
        await record(request);
        return new HttpResponse(null, { status: 204 });
      }),
    );
    const client = new RelayClient(BASE);
    const registration = {
      subscription: { endpoint: 'https://push.example/1', keys: { p256dh: 'a', auth: 'b' } },
      watches: [{ network: 'testnet' as const, principal: PRINCIPAL }],
    };
    expect(await client.putDevice(DEVICE, registration)).toEqual({ cursor: '42', unwatched: [] });
    expect(await client.alertsAfter(DEVICE, '41')).toEqual({ alerts: [], next: '42', more: false, missed: [] });
    await client.deleteDevice(DEVICE);
    expect(seen).toEqual([
      { method: 'PUT', url: `${BASE}/v1/devices/${DEVICE.id}`, auth: `Bearer ${DEVICE.secret}`, body: registration },
      {
        method: 'GET',
        url: `${BASE}/v1/devices/${DEVICE.id}/alerts?after=41`,
        auth: `Bearer ${DEVICE.secret}`,
        body: null,
      },
      { method: 'DELETE', url: `${BASE}/v1/devices/${DEVICE.id}`, auth: `Bearer ${DEVICE.secret}`, body: null },
    ]);
  });

  it('reads which addresses the relay does not watch, leaving out entries that do not read', async () => {
    const mainnet = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
    const reason = 'this relay follows no mainnet node (it follows testnet)';
    server.use(
      http.put(`${BASE}/v1/devices/:id`, () =>
        HttpResponse.json({
          deviceId: DEVICE.id,
          watches: 1,
          cursor: '1',
          unwatched: [{ network: 'mainnet', principal: mainnet, reason }, { network: 'devnet', principal: 'x' }, 7],
        }),
      ),
    );
    const put = await new RelayClient(BASE).putDevice(DEVICE, {
      subscription: { endpoint: 'https://p', keys: { p256dh: 'a', auth: 'b' } },
      watches: [],
    });
    expect(put).toEqual({ cursor: '1', unwatched: [{ network: 'mainnet', principal: mainnet, reason }] });
  });

  it('reports the relay’s own message on a refusal, and a malformed feed by its field', async () => {
    server.use(
      http.put(`${BASE}/v1/devices/:id`, () =>
        HttpResponse.json({ error: 'unauthorized', message: 'wrong secret for this device' }, { status: 401 }),
      ),
      http.get(`${BASE}/v1/devices/:id/alerts`, () => HttpResponse.json({ alerts: 'none', next: '1', more: false })),
      http.get(`${BASE}/v1/vapid-public-key`, () => HttpResponse.json({ key: 'x' })),
    );
    const client = new RelayClient(BASE);
    const put = client.putDevice(DEVICE, {
      subscription: { endpoint: 'https://p', keys: { p256dh: 'a', auth: 'b' } },
      watches: [],
    });
    await expect(put).rejects.toThrow(/does not recognise this device’s secret \(401\)\. It said: wrong secret/);
    await expect(put).rejects.toBeInstanceOf(RelayError);
    await expect(client.alertsAfter(DEVICE, null)).rejects.toThrow(
      /alerts could not be read: “alerts” must be an array/,
    );
    await expect(client.vapidPublicKey()).rejects.toThrow(/without its push key/);
  });

  it('says when the relay cannot be reached', async () => {
    server.use(http.get(`${BASE}/v1/vapid-public-key`, () => HttpResponse.error()));
    await expect(new RelayClient(BASE).vapidPublicKey()).rejects.toThrow(/could not be reached/);
  });
});

describe('runtime config', () => {
  it('reads an optional relay address, checked like the one typed in Settings', () => {
    expect(readRuntimeConfig({ devnet: null, relay: { url: 'http://127.0.0.1:3990/' } })).toEqual({
      ok: true,
      value: { devnet: null, relay: { url: 'http://127.0.0.1:3990' } },
    });
    expect(readRuntimeConfig({ devnet: { url: 'http://127.0.0.1:3999' } })).toEqual({
      ok: true,
      value: { devnet: { url: 'http://127.0.0.1:3999' }, relay: null },
    });
    const refused = readRuntimeConfig({ relay: { url: 'http://relay.example.com' } });
    expect(refused.ok ? '' : refused.error).toMatch(/“relay.url” is not usable: Plain http is only allowed/);
  });
});
