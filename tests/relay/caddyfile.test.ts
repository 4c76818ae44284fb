import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { findCaddy } from '../e2e/support/caddy.ts';
import { eventually, freePort, random, rawGet } from './harness.ts';

/**
 * The Caddyfile docs/self-hosting.md gives, taken from the document itself and run (plain http on loopback, the
 * certificate aside) in front of the one-origin server: the public site serves the app and the relay's health, never
 * its metrics or admin routes, which answer on the server's own loopback port.
 */
let devnet: RunningDevnet;
let server: RunningServer;
let caddy: ChildProcess;
let home: string;
let site: string;
const ADMIN = random(40);

/** The lines inside the guide's `watch.example.com { … }` block. */
async function guideSiteLines(): Promise<string[]> {
  const guide = await readFile('docs/self-hosting.md', 'utf8');
  const block = /```caddyfile\nwatch\.example\.com \{\n([\s\S]*?)\n\}\n```/.exec(guide)?.[1];
  if (!block) throw new Error('docs/self-hosting.md has no `watch.example.com { … }` Caddyfile block');
  return block.split('\n');
}

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  home = await mkdtemp(join(tmpdir(), 'stacks-watch-caddyfile-'));
  await writeFile(join(home, 'index.html'), '<!doctype html><title>Stacks Watch</title>');
  server = await startServer(
    readServerConfig(
      ['--port', '0', '--testnet-node', devnet.url, '--data-dir', join(home, 'data'), '--metrics'],
      { RELAY_ADMIN_TOKEN: ADMIN, RELAY_PUSH_THREADS: '0' },
      home,
    ),
  );
  const port = await freePort();
  const lines = (await guideSiteLines()).map((line) =>
    line.replace('reverse_proxy 127.0.0.1:8080', `reverse_proxy ${new URL(server.url).host}`),
  );
  await writeFile(
    join(home, 'Caddyfile'),
    `{\n\tadmin off\n\tauto_https off\n\tstorage file_system ${join(home, 'caddy')}\n}\n\nhttp://127.0.0.1:${port} {\n${lines.join('\n')}\n}\n`,
  );
  caddy = spawn(findCaddy(), ['run', '--config', join(home, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: home, XDG_DATA_HOME: home, XDG_CONFIG_HOME: home },
    stdio: 'ignore',
  });
  site = `http://127.0.0.1:${port}`;
  await eventually('Caddy to answer', async () => (await fetch(`${site}/`).catch(() => null))?.status);
});

afterAll(async () => {
  if (caddy && caddy.exitCode === null) {
    const exited = new Promise((resolve) => caddy.once('exit', resolve));
    caddy.kill('SIGTERM');
    await exited;
  }
  await server?.close();
  await devnet?.close();
  await rm(home, { recursive: true, force: true });
});

describe("the guide's Caddyfile", () => {
  it('serves the app and the relay health publicly', async () => {
    expect((await fetch(`${site}/`)).status).toBe(200);
    expect((await fetch(`${site}/relay/health/live`)).status).toBe(200);
  });

  it('keeps the metrics and admin routes off the public site; they answer on the loopback port', async () => {
    const admin = { authorization: `Bearer ${ADMIN}` };
    expect((await fetch(`${site}/relay/metrics`)).status).toBe(404);
    expect((await fetch(`${site}/relay/admin/dead-letters`, { headers: admin })).status).toBe(404);
    expect((await fetch(`${server.url}/relay/metrics`)).status).toBe(200);
    expect((await fetch(`${server.url}/relay/admin/dead-letters`, { headers: admin })).status).toBe(200);
  });

  it('keeps them off for every spelling of their paths a client may send', async () => {
    const admin = { authorization: `Bearer ${ADMIN}` };
    const spellings = (route: string) => [
      `/relay//x/${route}`,
      `/relay//${route}`,
      `/relay///${route}`,
      `/relay/./${route}`,
      `/relay/x/../${route}`,
      `/relay/%2e/${route}`,
      `/relay/x/%2e%2e/${route}`,
      `/relay%2f${route}`,
      `/relay/%2f${route}`,
      `/relay\\${route}`,
      `/RELAY/${route}`,
      `/relay/${route.replace('m', '%6d').replace('a', '%61')}`,
    ];
    for (const path of [...spellings('metrics'), ...spellings('admin/dead-letters')]) {
      const answer = await rawGet(site, path, admin);
      expect(answer.status, path).not.toBe(200);
      expect(answer.body, path).not.toMatch(/relay_database_up|"letters"/);
    }
    // Behind the proxy too, the server refuses them rather than normalise them.
    expect((await rawGet(server.url, '/relay//x/metrics')).status).toBe(400);
    expect((await rawGet(server.url, '/relay/./metrics')).status).toBe(400);
  });
});
