import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { findCaddy } from '../e2e/support/caddy.ts';
import { guideSiteLines, trialSiteLines, withUpstream } from '../support/guide-caddyfile.ts';
import { eventually, freePort, random, rawGet } from './harness.ts';

/**
 * The Caddyfiles docs/self-hosting.md gives, taken from the document itself and run in front of the one-origin server:
 * the public site's (plain http on loopback, the certificate aside) and the one-machine trial's (`localhost` with
 * `tls internal`, over https). The site serves the app and the relay's health, never its metrics or admin routes,
 * which answer on the server's own loopback port.
 */
let devnet: RunningDevnet;
let server: RunningServer;
let caddy: ChildProcess;
let trialCaddy: ChildProcess;
let home: string;
let site: string;
let trialPort: number;
const ADMIN = random(40);

const upstream = (lines: readonly string[]) => withUpstream(lines, new URL(server.url).host);

function startCaddy(dir: string): ChildProcess {
  return spawn(findCaddy(), ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], {
    env: { PATH: process.env['PATH'] ?? '', HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir },
    stdio: 'ignore',
  });
}

/** A GET to the trial's https site as a browser trusting Caddy's own authority (its root.crt) would make it. */
async function trialGet(path: string): Promise<{ status: number; body: string }> {
  const ca = await readFile(join(home, 'trial', 'caddy', 'pki', 'authorities', 'local', 'root.crt'));
  return new Promise((resolve, reject) => {
    const request = get(
      { host: '127.0.0.1', servername: 'localhost', port: trialPort, path, ca, headers: { host: 'localhost' } },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.once('error', reject);
  });
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
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
  await writeFile(
    join(home, 'Caddyfile'),
    `{\n\tadmin off\n\tauto_https off\n\tstorage file_system ${join(home, 'caddy')}\n}\n\nhttp://127.0.0.1:${port} {\n${upstream(await guideSiteLines()).join('\n')}\n}\n`,
  );
  caddy = startCaddy(home);
  site = `http://127.0.0.1:${port}`;
  // The trial's site as the guide writes it, on ports of its own (443 and 80 may be taken, or need root).
  const trial = join(home, 'trial');
  const [trialHttpPort, httpsPort] = [await freePort(), await freePort()];
  trialPort = httpsPort;
  await mkdir(trial);
  await writeFile(
    join(trial, 'Caddyfile'),
    `{\n\tadmin off\n\tskip_install_trust\n\tstorage file_system ${join(trial, 'caddy')}\n\thttp_port ${trialHttpPort}\n\thttps_port ${trialPort}\n}\n\nlocalhost:${trialPort} {\n${upstream(await trialSiteLines()).join('\n')}\n}\n`,
  );
  trialCaddy = startCaddy(trial);
  await eventually('Caddy to answer', async () => (await fetch(`${site}/`).catch(() => null))?.status);
  await eventually('the trial Caddy to answer with its own certificate', async () =>
    (await trialGet('/').catch(() => null))?.status === 200 ? true : undefined,
  );
});

afterAll(async () => {
  await stop(caddy);
  await stop(trialCaddy);
  await server?.close();
  await devnet?.close();
  await rm(home, { recursive: true, force: true });
});

describe("the guide's Caddyfile", () => {
  it('for the one-machine trial is the public one with tls internal, line for line', async () => {
    expect(await trialSiteLines()).toEqual(['\ttls internal', ...(await guideSiteLines())]);
  });

  it('for the trial serves the app and the relay over https with a certificate from its own authority', async () => {
    expect((await trialGet('/')).body).toContain('<title>Stacks Watch</title>');
    const health = await trialGet('/relay/health');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toMatchObject({ ok: true, devices: 0 });
    expect((await trialGet('/relay/metrics')).status).toBe(404);
    expect((await trialGet('/relay/admin/dead-letters')).status).toBe(404);
  });

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
