import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { call, eventually, random, tempDir } from './harness.ts';

/**
 * What the container runs: the server compiled to JavaScript (`npm run build:server`), laid out as the Dockerfile's
 * last stage copies it and started with its CMD, with only the production dependencies resolvable (each linked into a
 * fresh node_modules, and Node told to resolve from the links, so a development package such as tsx or React cannot be
 * reached through the repository's node_modules).
 */
const run = promisify(execFile);
const REPO = process.cwd();
let devnet: RunningDevnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
let child: ChildProcess | null = null;
let linked: string[] = [];

const packageJson = JSON.parse(readFileSync('package.json', 'utf8')) as { dependencies: Record<string, string> };
const serverOutDir = (
  JSON.parse(readFileSync('tsconfig.server.json', 'utf8')) as { compilerOptions: { outDir: string } }
).compilerOptions.outDir;
const dockerfile = readFileSync('Dockerfile', 'utf8');
const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
/** What the image copies from the build stage (its WORKDIR /src) into its own (/app): [from, to], relative. */
const copied = [...finalStage.matchAll(/^COPY --from=build \/src\/(\S+) \.\/(\S+)$/gm)].map(([, from, to]) => [
  from!,
  to!,
]);
const command = JSON.parse(/^CMD (\[.*\])$/m.exec(finalStage)?.[1] ?? '[]') as string[];

/** The packages the compiled server imports by name (statically or with import()), its own files aside. */
async function importedPackages(root: string): Promise<string[]> {
  const names = new Set<string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.js')) continue;
    const text = await readFile(join(entry.parentPath, entry.name), 'utf8');
    for (const [, specifier] of text.matchAll(/(?:\bfrom|\bimport\()\s*['"]([^'"]+)['"]/g)) {
      if (specifier!.startsWith('.') || specifier!.startsWith('node:')) continue;
      const parts = specifier!.split('/');
      names.add(specifier!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!);
    }
  }
  return [...names].sort();
}

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
      join(dir.path, serverOutDir),
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
  it("copies what the build makes: the app's dist/ and the server's compiled output", () => {
    // Vite writes the app to dist/ (vite.config.ts names no other outDir), tsc the server to tsconfig.server.json's.
    expect(copied).toEqual([
      ['dist', 'dist'],
      [serverOutDir, serverOutDir],
    ]);
    expect(command[0]).toBe('node');
    expect(command[1]?.startsWith(`${serverOutDir}/`)).toBe(true);
  });

  it('is compiled from src/ alone: nothing of scripts/ ships in the image', async () => {
    expect(await readdir(join(dir.path, serverOutDir))).toEqual(['src']);
  });

  it("has as dependencies exactly the packages it imports, so the image's npm ci --omit=dev installs no more", async () => {
    expect(await importedPackages(join(dir.path, serverOutDir))).toEqual(Object.keys(packageJson.dependencies).sort());
    expect(linked).toContain('web-push');
    for (const devOnly of ['tsx', 'vite', 'react', 'react-dom', 'workbox-window'])
      expect(linked).not.toContain(devOnly);
  });

  it("starts with its CMD on production dependencies only, follows a device's address, stops on SIGTERM", async () => {
    const server = spawn(
      process.execPath,
      [
        ...['--preserve-symlinks', '--preserve-symlinks-main', command[1]!],
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
    expect((await call(`${url}/relay/health`)).body).toMatchObject({ ok: true, devices: 0 });
    // A device's address makes it open the node's live feed (the Stacks API client, loaded from the links).
    const id = random(24);
    const registered = await call(`${url}/relay/v1/devices/${id}`, {
      method: 'PUT',
      secret: random(43),
      body: {
        subscription: {
          endpoint: `https://fcm.googleapis.com/fcm/send/${id}`,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
        watches: [{ network: 'testnet', principal: devnet.node.chain.accounts.all[1]!.address }],
      },
    });
    expect(registered.status).toBe(201);
    await eventually('the testnet node followed', async () => {
      const health = await call(`${url}/relay/health`);
      const testnet = (health.body?.['networks'] as Record<string, { state: string; connected: boolean }>)['testnet'];
      return testnet?.state === 'following' && testnet.connected ? true : undefined;
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
