import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { call, tempDir } from './harness.ts';

/**
 * What the container runs: the server compiled to JavaScript (`npm run build:server`), started with `node`, with
 * only the production dependencies resolvable (each linked into a fresh node_modules, and Node told to resolve
 * from the links, so a development package such as tsx cannot be reached through the repository's node_modules).
 */
const run = promisify(execFile);
const REPO = process.cwd();
let devnet: RunningDevnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
let child: ChildProcess | null = null;
let linked: string[] = [];

/** Top-level package folders of the production dependency tree (nested ones come with their parent). */
async function productionPackages(): Promise<string[]> {
  const { stdout } = await run('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: REPO });
  const top = new Set<string>();
  for (const line of stdout.split('\n')) {
    const path = relative(join(REPO, 'node_modules'), line.trim());
    if (!line.trim() || path.startsWith('..') || path === '') continue;
    const parts = path.split('/');
    top.add(parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
  }
  return [...top];
}

beforeAll(async () => {
  dir = await tempDir('compiled-server-');
  devnet = await startDevnet({ port: 0, blockMs: null, activity: false });
  await run(
    process.execPath,
    [
      join(REPO, 'node_modules/typescript/bin/tsc'),
      '-p',
      'tsconfig.server.json',
      '--outDir',
      join(dir.path, 'build/server'),
    ],
    {
      cwd: REPO,
    },
  );
  linked = await productionPackages();
  for (const name of linked) {
    const to = join(dir.path, 'node_modules', name);
    await mkdir(dirname(to), { recursive: true });
    await symlink(join(REPO, 'node_modules', name), to);
  }
  await writeFile(join(dir.path, 'package.json'), JSON.stringify({ type: 'module' }));
  await mkdir(join(dir.path, 'dist'));
  await writeFile(join(dir.path, 'dist/index.html'), '<!doctype html><title>Stacks Watch</title>');
});

afterAll(async () => {
  if (child && child.exitCode === null) child.kill('SIGKILL');
  await devnet?.close();
  await dir?.remove();
});

describe('the compiled server', () => {
  it('starts from its JavaScript with production dependencies only, serves, and stops on SIGTERM', async () => {
    expect(linked).toContain('web-push');
    expect(linked).not.toContain('tsx');
    expect(linked).not.toContain('vite');
    const server = spawn(
      process.execPath,
      [
        ...['--preserve-symlinks', '--preserve-symlinks-main', 'build/server/src/server/main.js'],
        ...['--port', '0', '--testnet-node', devnet.url, '--data-dir', 'data', '--push-threads', '1'],
      ],
      { cwd: dir.path, stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env['PATH'] ?? '' } },
    );
    child = server;
    let output = '';
    const url = await new Promise<string>((resolve, reject) => {
      server.stderr!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const found = /stacks-watch listening on (http:\/\/[\d.]+:\d+)/.exec(output)?.[1];
        if (found) resolve(found);
      });
      server.once('exit', (code) => reject(new Error(`the server exited with ${code}:\n${output}`)));
    });
    expect(output).toContain(`app from ${join(dir.path, 'dist')}`);
    expect(await (await fetch(`${url}/`)).text()).toContain('<title>Stacks Watch</title>');
    expect((await call(`${url}/relay/health`)).body).toMatchObject({ ok: true });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
