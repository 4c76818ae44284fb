import { spawn } from 'node:child_process';
import { access, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { ChildProcesses, exitOf } from './child-processes.ts';
import { tempDir, waitForLine } from './harness.ts';

/** The embedded database serves one relay process: a second on the same directory is refused, naming the first. */
let devnet: RunningDevnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
const processes = new ChildProcesses();

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  dir = await tempDir('relay-single-');
});

afterAll(async () => {
  processes.killAll();
  await devnet?.close();
  await dir?.remove();
});

const relayProcess = (dataDir: string, port = 0) =>
  processes.start('src/relay/main.ts', [
    ...['--testnet-node', devnet.url, '--data-dir', dataDir, '--port', String(port), '--push-threads', '0'],
  ]);

describe('one embedded database, one relay', () => {
  it('refuses a second process on the same data directory, naming the one that holds it', async () => {
    const data = join(dir.path, 'shared');
    const first = relayProcess(data);
    await waitForLine(first.child, 'stderr', /relay listening on/);
    const second = relayProcess(data);
    expect(await second.exited()).toBe(1);
    expect(second.stderr()).toContain(`in use by process ${first.child.pid}`);
    expect(second.stderr()).not.toContain('relay listening');
    // The first still holds it, and still runs.
    expect((await readFile(join(data, 'relay.lock'), 'utf8')).split('\n')[0]).toBe(String(first.child.pid));
    expect(first.child.exitCode).toBeNull();

    // Killed without a chance to clean up: its lock names a dead process, and the next relay takes it over.
    await first.stop('SIGKILL');
    const third = relayProcess(data);
    await waitForLine(third.child, 'stderr', /relay listening on/);
    expect((await readFile(join(data, 'relay.lock'), 'utf8')).split('\n')[0]).toBe(String(third.child.pid));

    // A graceful stop lets the directory go.
    expect(await third.stop()).toBe(0);
    await expect(access(join(data, 'relay.lock'))).rejects.toThrow(/ENOENT/);
  });

  it('refuses the app server (npm start, npm run serve) on a directory a relay holds, naming the relay', async () => {
    const data = join(dir.path, 'server');
    const relay = relayProcess(data);
    await waitForLine(relay.child, 'stderr', /relay listening on/);
    await writeFile(join(dir.path, 'index.html'), '<!doctype html><title>Stacks Watch</title>');
    const server = processes.start('src/server/main.ts', [
      ...['--root', dir.path, '--port', '0'],
      ...['--testnet-node', devnet.url, '--data-dir', data, '--push-threads', '0'],
    ]);
    expect(await server.exited()).not.toBe(0);
    expect(server.stderr()).toContain(`in use by process ${relay.child.pid}`);
    expect(server.stderr()).not.toContain('listening on');
    expect(await relay.stop()).toBe(0);
  });

  it('takes over a lock left by a process that no longer exists', async () => {
    const data = join(dir.path, 'stale');
    const gone = spawn(process.execPath, ['-e', '0']);
    const gonePid = gone.pid!;
    await exitOf(gone);
    const { mkdir } = await import('node:fs/promises');
    await mkdir(data, { recursive: true });
    await writeFile(join(data, 'relay.lock'), `${gonePid}\nrelay since earlier\n`);
    const relay = relayProcess(data);
    await waitForLine(relay.child, 'stderr', /relay listening on/);
    expect((await readFile(join(data, 'relay.lock'), 'utf8')).split('\n')[0]).toBe(String(relay.child.pid));
    expect(await relay.stop()).toBe(0);
  });

  it('binds its port before it opens the database: a relay that cannot listen stores and sends nothing', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    const data = join(dir.path, 'port-taken');
    const relay = relayProcess(data, port);
    expect(await relay.exited()).toBe(1);
    expect(relay.stderr()).toContain('EADDRINUSE');
    // No database was opened (nothing queued could have been pushed), and the directory was let go.
    await expect(access(join(data, 'pgdata'))).rejects.toThrow(/ENOENT/);
    await expect(access(join(data, 'relay.lock'))).rejects.toThrow(/ENOENT/);
    taken.close();
  });
});
