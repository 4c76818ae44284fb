import { relayDataDir } from './pglite-template.ts';
import { mkdir, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readRuntimeConfig } from '../../src/chain/runtime-config.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { call, random, rawGet, tempDir } from './harness.ts';

/**
 * The production server: the app's files, its runtime config and the relay's API on one origin. The app's files
 * here are a small stand-in tree (the real build is served by the browser tests), so this runs without a build.
 */
let devnet: RunningDevnet;
let dirs: Awaited<ReturnType<typeof tempDir>>[] = [];
const servers: RunningServer[] = [];
let root = '';

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  const files = await tempDir('server-root-');
  dirs.push(files);
  root = join(files.path, 'dist');
  await mkdir(join(root, 'assets'), { recursive: true });
  await writeFile(join(root, 'index.html'), '<!doctype html><title>Stacks Watch</title>');
  await writeFile(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  await writeFile(join(files.path, 'secret.txt'), 'outside the root');
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await devnet?.close();
  for (const dir of dirs) await dir.remove();
});

async function serve(flags: string[], env: NodeJS.ProcessEnv = {}): Promise<RunningServer> {
  const data = await relayDataDir('server-data-');
  dirs = [...dirs, data];
  const config = readServerConfig(
    ['--port', '0', '--testnet-node', devnet.url, '--data-dir', data.path, '--push-threads', '0', ...flags],
    env,
    root,
  );
  const server = await startServer(config, { relayHooks: { report: () => undefined } });
  servers.push(server);
  return server;
}

describe('one server for the app and its relay', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await serve(['--connect-src', 'https://node.example.com']);
  });

  it('serves the app with its security headers, the policy built from its nodes', async () => {
    const page = await fetch(`${server.url}/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Stacks Watch</title>');
    const policy = page.headers.get('content-security-policy') ?? '';
    const connect = policy.split('; ').find((directive) => directive.startsWith('connect-src')) ?? '';
    expect(connect.split(' ')).toEqual(
      expect.arrayContaining(["'self'", devnet.url, devnet.url.replace('http:', 'ws:'), 'https://node.example.com']),
    );
    expect(policy).toContain("frame-ancestors 'none'");
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const asset = await fetch(`${server.url}/assets/index-abc123.js`);
    expect(asset.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    const again = await fetch(`${server.url}/sw.js`, {
      headers: { 'if-modified-since': (await fetch(`${server.url}/sw.js`)).headers.get('last-modified')! },
    });
    expect(again.status).toBe(304);
    // The tag decides when sent: the one the file had is a 304 (weak or not, among others), another a 200 with it.
    const tag = (await fetch(`${server.url}/sw.js`)).headers.get('etag')!;
    expect(tag).toMatch(/^W\/"[0-9a-f]+-[0-9a-f]+"$/);
    const tagged = async (ifNoneMatch: string) =>
      (await fetch(`${server.url}/sw.js`, { headers: { 'if-none-match': ifNoneMatch } })).status;
    expect(await tagged(tag)).toBe(304);
    expect(await tagged(`"other", ${tag.slice(2)}`)).toBe(304);
    expect(await tagged('W/"0-0"')).toBe(200);
    const stale = await fetch(`${server.url}/sw.js`, {
      headers: { 'if-none-match': 'W/"0-0"', 'if-modified-since': again.headers.get('last-modified')! },
    });
    expect([stale.status, stale.headers.get('etag')]).toEqual([200, tag]);
  });

  it('opens the app on any screen it is navigated to, and answers 404 for a missing file', async () => {
    const contract = `${server.url}/address/${devnet.node.chain.accounts.all[0]!.address}.demo-vault`;
    const navigation = await fetch(contract, { headers: { accept: 'text/html' } });
    expect(navigation.status).toBe(200);
    expect(await navigation.text()).toContain('<title>Stacks Watch</title>');
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
  });

  it('never serves a file outside the app, for the raw paths a client may send', async () => {
    const paths = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/../../secret.txt',
      '/assets/..%2f..%2fsecret.txt',
      '/..%5csecret.txt',
      '/..\\secret.txt',
    ];
    for (const path of paths) {
      // fetch would normalise `..` and `%2e%2e` away before sending: the request line carries the path as written.
      const answer = await rawGet(server.url, path);
      expect(answer.body, path).not.toContain('outside the root');
    }
  });

  it('reads every path as a path: a doubled slash is never a host, a dot segment or encoded slash is refused', async () => {
    const hostile = [
      '//evil.example/index.html',
      '/relay//x/health',
      '/relay//health',
      '/relay/./health',
      '/relay/v1/../health',
      '/relay/%2e/health',
      '/relay/v1/%2E%2e/health',
      '/relay%2fhealth',
      '/relay/v1%2fvapid-public-key',
      '/relay/v1%5cvapid-public-key',
      '/assets//index-abc123.js',
      '/assets/%2e%2e/index.html',
      '/assets/%zz.js',
    ];
    for (const path of hostile) {
      const answer = await rawGet(server.url, path);
      expect(answer.status, path).toBe(400);
      expect(answer.body, path).toMatch(/^Bad path: the path must|^Bad path: the path has/);
    }
    // The plain spellings still answer, a query included.
    expect((await rawGet(server.url, '/relay/health?probe=1')).status).toBe(200);
    expect((await rawGet(server.url, '/relay/v1/vapid-public-key')).status).toBe(200);
    expect((await rawGet(server.url, '/relay?x=1')).status).toBe(404);
  });

  it('gives the app a runtime config naming its relay on this origin and its nodes', async () => {
    const answer = await fetch(`${server.url}/stacks-watch-config.json`);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const config = readRuntimeConfig(await answer.json());
    // The nodes the app may be pointed at: the http(s) origins its policy's connect-src lists beside its own.
    const policy = (await fetch(`${server.url}/`)).headers.get('content-security-policy') ?? '';
    const allowed = (/connect-src ([^;]+)/.exec(policy)?.[1] ?? '').split(' ').filter((s) => /^https?:/.test(s));
    expect(allowed).toContain(devnet.url);
    expect(config).toEqual({
      ok: true,
      value: {
        devnet: null,
        relay: { url: `${server.url}/relay` },
        nodes: { testnet: { url: devnet.url } },
        allowedNodes: allowed,
      },
    });
  });

  it('answers the relay API under /relay on the same origin', async () => {
    expect((await call(`${server.url}/relay/health`)).body).toMatchObject({ ok: true });
    const openApi = await call(`${server.url}/relay/openapi.json`);
    expect(openApi.body).toMatchObject({ openapi: '3.1.0', servers: [{ url: '.' }] });
    const key = await call(`${server.url}/relay/v1/vapid-public-key`);
    expect(key.body?.['publicKey']).toBe(server.relay!.vapidPublicKey);
    const id = random(24);
    const put = await call(`${server.url}/relay/v1/devices/${id}`, {
      method: 'PUT',
      secret: random(43),
      body: {
        subscription: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/abc',
          expirationTime: null,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
        watches: [{ network: 'testnet', principal: devnet.node.chain.accounts.all[0]!.address }],
      },
    });
    expect(put.status).toBe(201);
  });
});

describe('the relay URL behind a reverse proxy', () => {
  // fetch() may not set Host (a forbidden header): a proxy does, so node:http stands in for it.
  const configFrom = (server: RunningServer, headers: Record<string, string>) =>
    new Promise<{ relay: { url: string } | null }>((resolve, reject) => {
      get(`${server.url}/stacks-watch-config.json`, { headers }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () => resolve(JSON.parse(text) as { relay: { url: string } | null }));
      }).on('error', reject);
    });

  it('is https on the public name when a trusted proxy says the request came over https', async () => {
    const server = await serve(['--trust-proxy', 'loopback']);
    const config = await configFrom(server, { host: 'stacks-watch.test', 'x-forwarded-proto': 'https' });
    expect(config.relay).toEqual({ url: 'https://stacks-watch.test/relay' });
  });

  it('is left out when a plain-http request comes from a name that is not loopback and no proxy vouches for it', async () => {
    const server = await serve([]);
    const config = await configFrom(server, { host: 'stacks-watch.test', 'x-forwarded-proto': 'https' });
    expect(config.relay).toBeNull();
  });

  it('is always the --public-url when one is given', async () => {
    const server = await serve([
      '--public-url',
      'https://watch.example.com',
      '--vapid-subject',
      'mailto:operator@stacks-watch-relay.org',
    ]);
    expect((await configFrom(server, { host: 'evil.test' })).relay).toEqual({
      url: 'https://watch.example.com/relay',
    });
  });
});

describe('a server without its relay', () => {
  it('serves the app alone: no /relay, and no relay in the runtime config', async () => {
    const server = await serve(['--no-relay']);
    expect(server.relay).toBeNull();
    expect((await fetch(`${server.url}/relay/health`)).status).toBe(404);
    const config = (await call(`${server.url}/stacks-watch-config.json`)).body;
    expect(config).toMatchObject({ relay: null, nodes: { testnet: { url: devnet.url } } });
  });

  it('refuses a bad flag with what was expected', () => {
    expect(() => readServerConfig(['--public-url', 'https://watch.example.com/app'], {}, root)).toThrow(
      /--public-url must be an origin such as https:\/\/watch.example.com, with no path/,
    );
    expect(() => readServerConfig(['--port', 'eighty'], {}, root)).toThrow(/the port must be a number/);
    expect(() => readServerConfig(['--no-such-flag'], {}, root)).toThrow(/no-such-flag/);
    expect(() => readServerConfig([], { STACKS_WATCH_CONNECT_SRC: 'node.example.com' }, root)).toThrow(
      /takes http\(s\) origins such as https:\/\/node.example.com \(got "node.example.com"\)/,
    );
  });
});
