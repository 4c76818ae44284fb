import { access, mkdir, writeFile } from 'node:fs/promises';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readConfig } from '../../src/relay/config.ts';
import { startRelay } from '../../src/relay/relay.ts';
import { ChildProcesses, type StartedProcess } from './child-processes.ts';
import { eventually, tempDir, waitForLine } from './harness.ts';

/** How the launchers start and stop: a start that fails leaves nothing running; a stop answers signals. */
let devnet: RunningDevnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
const processes = new ChildProcesses();

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  dir = await tempDir('relay-launchers-');
  await writeFile(join(dir.path, 'index.html'), '<!doctype html><title>Stacks Watch</title>');
});

afterAll(async () => {
  processes.killAll();
  await devnet?.close();
  await dir?.remove();
});

/** What stays open: sockets, servers, worker threads (not timers or a request that is under way). */
const PASSING = new Set(['Timeout', 'Immediate', 'CloseReq', 'FSReqCallback', 'FSReqPromise']);
const resources = () =>
  process
    .getActiveResourcesInfo()
    .filter((kind) => !PASSING.has(kind))
    .sort()
    .join(',');

describe('a relay that cannot start', () => {
  it('closes what it started (push threads, the engine, the database) when its port is taken', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const before = resources();
    const config = readConfig(
      ['--testnet-node', devnet.url, '--data-dir', join(dir.path, 'data'), '--port', String(port)],
      { RELAY_PUSH_THREADS: '2' },
    );
    await expect(startRelay(config, { report: () => undefined })).rejects.toThrow(/EADDRINUSE/);
    await eventually('everything the failed start opened to be closed', async () =>
      resources() === before ? true : undefined,
    );
    taken.close();
    // The database was closed, not left locked: the same data directory opens again.
    const relay = await startRelay({ ...config, port: 0 }, { report: () => undefined });
    await relay.close();
  });
});

/** The production server (`node build/server/src/server/main.js`), from its source. */
async function startServerProcess(): Promise<StartedProcess> {
  const server = processes.start('src/server/main.ts', [
    ...['--root', dir.path, '--port', '0'],
    ...['--testnet-node', devnet.url, '--data-dir', join(dir.path, 'server-data'), '--push-threads', '1'],
  ]);
  await waitForLine(server.child, 'stderr', /stacks-watch listening on/);
  return server;
}

const events = (stderr: string) =>
  stderr
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { event: string; signal?: string });

describe('the production server on a signal', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    it(`on ${signal}: says it is stopping, stops the relay, exits 0`, async () => {
      const { stop, stderr } = await startServerProcess();
      expect(await stop(signal)).toBe(0);
      const seen = events(stderr());
      expect(seen.map((line) => line.event)).toEqual(['stopping', 'stopped']);
      expect(seen[0]?.signal).toBe(signal);
    });

  it('exits 1 at once on a second signal during the graceful stop', async () => {
    const server = await startServerProcess();
    const { child, stderr } = server;
    const port = Number(/stacks-watch listening on http:\/\/[\d.]+:(\d+)/.exec(stderr())?.[1]);
    // A device's PUT whose body is still arriving: the graceful stop waits for it (up to its deadline).
    const slow = connect(port, '127.0.0.1');
    await new Promise((resolve) => slow.once('connect', resolve));
    slow.on('error', () => undefined);
    slow.write(
      'PUT /relay/v1/devices/abcdefghijklmnopqrstuvwx HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
        'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
    );
    const exited = server.exited();
    child.kill('SIGTERM');
    await eventually('the stop to begin', async () => (stderr().includes('"stopping"') ? true : undefined));
    child.kill('SIGINT');
    expect(await exited).toBe(1);
    expect(events(stderr()).map((line) => line.event)).toContain('stopped before the end of a graceful stop');
    slow.destroy();
  });
});

describe('the production server pointed at a folder that is not the built app', () => {
  it.each([
    ['an empty folder', 'empty', 'has no index.html'],
    ['a folder that does not exist', 'never-built/dist', 'does not exist'],
  ])(
    'refuses %s with one line naming it and what is expected, exit 2, before it opens anything',
    async (_, name, why) => {
      const root = join(dir.path, name);
      if (name === 'empty') await mkdir(root);
      const data = join(dir.path, `data-${name.replace(/\W/g, '-')}`);
      const server = processes.start('src/server/main.ts', [
        ...['--root', root, '--port', '0'],
        ...['--testnet-node', devnet.url, '--data-dir', data, '--push-threads', '0'],
      ]);
      expect(await server.exited()).toBe(2);
      expect(server.stderr()).toBe(
        `stacks-watch: could not start: the app's folder ${root} ${why}: --root (STACKS_WATCH_ROOT) must be the built ` +
          'app, the dist/ that `npm run build` makes; run npm run build in the clone, or point --root at its dist/\n',
      );
      // Refused before the relay started: no database, no keys.
      await expect(access(data)).rejects.toThrow(/ENOENT/);
    },
  );
});
