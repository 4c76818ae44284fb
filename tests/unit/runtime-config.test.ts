import { describe, expect, it } from 'vitest';
import { readRuntimeConfig } from '../../src/chain/runtime-config.ts';
import { loadKeptRuntimeConfig } from '../../src/chain/page/runtime-config-kept.ts';
import { mayUseLocalNode } from '../../src/domain/node-policy.ts';
import { contentSecurityPolicy, policyNodes } from '../../src/server/csp.ts';

describe('the runtime config', () => {
  it('reads the devnet and the relay, each optional', () => {
    expect(readRuntimeConfig({})).toEqual({ ok: true, value: { devnet: null, relay: null } });
    expect(
      readRuntimeConfig({ devnet: { url: 'http://127.0.0.1:3999' }, relay: { url: 'http://127.0.0.1:3990' } }),
    ).toEqual({
      ok: true,
      value: { devnet: { url: 'http://127.0.0.1:3999' }, relay: { url: 'http://127.0.0.1:3990' } },
    });
  });

  it('refuses a relay URL it cannot use, saying why', () => {
    expect(readRuntimeConfig({ relay: { url: 'ftp://relay.example' } })).toEqual({
      ok: false,
      error: '“relay.url” is not usable: A relay is reached over https, not ftp.',
    });
    expect(readRuntimeConfig({ relay: { url: 42 } })).toMatchObject({
      ok: false,
      error: /^“relay\.url” is not usable: /,
    });
    // A relay may live under a path of its host.
    expect(readRuntimeConfig({ relay: { url: 'https://relay.example/watch/' } })).toMatchObject({ ok: true });
  });
});

describe('the nodes the serving deployment’s policy lets the page contact', () => {
  it('are read as the policy lists them, and a list that is not of http(s) origins is refused, saying why', () => {
    const allowedNodes = ['https://api.mainnet.hiro.so', 'https://api.testnet.hiro.so', 'http://127.0.0.1:3999'];
    expect(readRuntimeConfig({ allowedNodes })).toEqual({
      ok: true,
      value: { devnet: null, relay: null, allowedNodes },
    });
    for (const bad of [
      'https://api.mainnet.hiro.so',
      ['wss://node.example.com'],
      ['https://node.example.com/api'],
      [7],
    ])
      expect(readRuntimeConfig({ allowedNodes: bad })).toEqual({
        ok: false,
        error: '“allowedNodes” must be a list of http(s) origins such as ["https://api.example.com"]',
      });
  });

  it('are built from the policy’s own list: its http(s) origins, the public nodes first', () => {
    const connect = ['http://127.0.0.1:3999/', 'https://node.example.com', 'https://api.testnet.hiro.so'];
    const sources = (/connect-src ([^;]+)/.exec(contentSecurityPolicy({ connect }))?.[1] ?? '').split(' ');
    expect(policyNodes(connect)).toEqual(sources.filter((source) => /^https?:/.test(source)));
    expect(policyNodes(connect)).toEqual([
      'https://api.mainnet.hiro.so',
      'https://api.testnet.hiro.so',
      'http://127.0.0.1:3999',
      'https://node.example.com',
    ]);
  });

  it('offer a node on this device only where one is among them, or where the server does not say', () => {
    expect(mayUseLocalNode(['https://api.mainnet.hiro.so', 'http://127.0.0.1:3999'])).toBe(true);
    expect(mayUseLocalNode(['https://api.mainnet.hiro.so', 'http://localhost:3999'])).toBe(true);
    expect(mayUseLocalNode(['https://api.mainnet.hiro.so', 'http://192.168.1.20:3999'])).toBe(false);
    expect(mayUseLocalNode(undefined)).toBe(true);
  });
});

describe('the runtime config kept on the device', () => {
  const ORIGIN = 'http://127.0.0.1:4173';
  const CONFIG = { devnet: { url: 'http://127.0.0.1:3999' }, relay: { url: 'http://127.0.0.1:3990' } };
  const memory = (stored?: unknown) => {
    const kept = { value: stored, writes: 0 };
    return {
      kept,
      port: {
        read: async () => kept.value,
        write: async (raw: unknown) => {
          kept.writes += 1;
          kept.value = raw;
        },
        forget: async () => {
          kept.value = undefined;
        },
      },
    };
  };
  const answer =
    (response: () => Response, url = `${ORIGIN}/stacks-watch-config.json`): typeof fetch =>
    async () =>
      Object.defineProperty(response(), 'url', { value: url });

  it('keeps what the server sends, and uses it when the server cannot be reached', async () => {
    const { kept, port } = memory();
    const online = answer(() => Response.json(CONFIG));
    expect(await loadKeptRuntimeConfig(port, online, ORIGIN)).toEqual(CONFIG);
    expect(kept).toEqual({ value: CONFIG, writes: 1 });
    const offline: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    expect(await loadKeptRuntimeConfig(port, offline, ORIGIN)).toEqual(CONFIG);
    expect(
      await loadKeptRuntimeConfig(
        port,
        answer(() => new Response('down', { status: 503 })),
        ORIGIN,
      ),
    ).toEqual(CONFIG);
    // A captive portal's page, or anything answering from another place, is not the server saying it has none.
    const portal = answer(() => new Response('<html>', { headers: { 'content-type': 'text/html' } }), 'http://portal/');
    expect(await loadKeptRuntimeConfig(port, portal, ORIGIN)).toEqual(CONFIG);
    expect(kept.value).toEqual(CONFIG);
  });

  it('forgets it when the server says it has none, and falls back on it when the server sends a damaged one', async () => {
    const { kept, port } = memory(CONFIG);
    const damaged = answer(() => Response.json({ relay: { url: 'ftp://x' } }));
    expect(await loadKeptRuntimeConfig(port, damaged, ORIGIN)).toEqual(CONFIG);
    expect(kept.value).toEqual(CONFIG);
    const none = answer(() => new Response('not found', { status: 404 }));
    expect(await loadKeptRuntimeConfig(port, none, ORIGIN)).toEqual({ devnet: null, relay: null });
    expect(kept.value).toBeUndefined();
  });

  it.each([
    ['a 401', () => new Response('sign in', { status: 401 })],
    [
      'a CDN challenge (403 HTML)',
      () => new Response('<html>challenge', { status: 403, headers: { 'content-type': 'text/html' } }),
    ],
    ['a 429', () => new Response('slow down', { status: 429, headers: { 'retry-after': '30' } })],
    ['a 400', () => new Response('bad request', { status: 400 })],
    ['a 5xx', () => new Response('down', { status: 502 })],
    ['a 200 HTML page at the same address', () => new Response('<html>', { headers: { 'content-type': 'text/html' } })],
    ['a 200 that is not JSON', () => new Response('devnet=1', { headers: { 'content-type': 'text/plain' } })],
    [
      'a 200 JSON that does not parse',
      () => new Response('{"relay":', { headers: { 'content-type': 'application/json' } }),
    ],
  ])('keeps it and uses it on %s: only the server saying it has none forgets it', async (_, response) => {
    const { kept, port } = memory(CONFIG);
    expect(await loadKeptRuntimeConfig(port, answer(response), ORIGIN)).toEqual(CONFIG);
    expect(kept.value).toEqual(CONFIG);
  });

  it.each([204, 404, 410])('forgets it on a %i, whatever the body', async (status) => {
    const { kept, port } = memory(CONFIG);
    // A 204 carries no body at all.
    const body = status === 204 ? null : '<html>gone';
    const gone = answer(() => new Response(body, { status, headers: { 'content-type': 'text/html' } }));
    expect(await loadKeptRuntimeConfig(port, gone, ORIGIN)).toEqual({ devnet: null, relay: null });
    expect(kept.value).toBeUndefined();
  });

  it('does not forget it on a 404 that came from somewhere else (a redirect to a portal)', async () => {
    const { kept, port } = memory(CONFIG);
    const portal = answer(() => new Response('not here', { status: 404 }), 'http://portal/login');
    expect(await loadKeptRuntimeConfig(port, portal, ORIGIN)).toEqual(CONFIG);
    expect(kept.value).toEqual(CONFIG);
  });

  it('retries a refused write before it gives up, and uses the config all the same', async () => {
    const { kept, port } = memory();
    let refusals = 1;
    const flaky = {
      ...port,
      write: async (raw: unknown) => {
        if (refusals-- > 0) throw new DOMException('quota', 'QuotaExceededError');
        await port.write(raw);
      },
    };
    expect(
      await loadKeptRuntimeConfig(
        flaky,
        answer(() => Response.json(CONFIG)),
        ORIGIN,
      ),
    ).toEqual(CONFIG);
    expect(kept).toEqual({ value: CONFIG, writes: 1 });
  });
});
