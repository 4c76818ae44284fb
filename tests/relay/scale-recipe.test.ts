import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type RunningDevnet } from '../../mocks/devnet/server.ts';
import { readServerConfig } from '../../src/server/server-config.ts';
import { startServer, type RunningServer } from '../../src/server/start-server.ts';
import { asReplaced, envBlocksOf, environmentOf, readUnit } from '../support/guide-settings.ts';
import { call, tempDir } from './harness.ts';
import { postgresBinDir, startPostgres, type RunningPostgres } from './postgres-server.ts';

/**
 * docs/relay-at-scale.md's recipe on a real PostgreSQL server: the role and database made with the recipe's own
 * commands, then two servers started with what deploy/stacks-watch@.service gives instances 1 and 2 and the recipe's
 * environment file, logging in over the Unix socket as that role. The throwaway server trusts local logins where
 * Debian's peer rule checks the system user: what this proves is that the role and its database are enough for the
 * relay (it creates its tables as the database's owner) and that the URL reaches them.
 */
const GUIDE = readFileSync('docs/relay-at-scale.md', 'utf8');
const TEMPLATE = environmentOf(readUnit('deploy/stacks-watch@.service'));

let postgres: RunningPostgres;
let devnet: RunningDevnet;
let dir: Awaited<ReturnType<typeof tempDir>>;
const servers: RunningServer[] = [];

beforeAll(async () => {
  [postgres, devnet, dir] = await Promise.all([
    startPostgres(),
    startDevnet({ port: 0, blockMs: null, activity: false }),
    tempDir('scale-recipe-'),
  ]);
  await mkdir(join(dir.path, 'dist'));
  await writeFile(join(dir.path, 'dist', 'index.html'), '<!doctype html><title>Stacks Watch</title>');
});

afterAll(async () => {
  for (const server of servers) await server.close();
  await postgres?.stop();
  await devnet?.close();
  await dir?.remove();
});

describe("the recipe's PostgreSQL role and database", () => {
  it('are made by its commands, and two instances start on them as that role, over the Unix socket', async () => {
    // Step 1, as the recipe writes it; `sudo -u postgres` is the throwaway server's superuser here.
    const commands = [...GUIDE.matchAll(/^ *sudo -u postgres (create(?:user|db)) (.+)$/gm)];
    expect(commands.map(([, command]) => command)).toEqual(['createuser', 'createdb']);
    for (const [, command, args] of commands)
      execFileSync(
        join(postgresBinDir(), command!),
        [...args!.split(' '), '-h', postgres.socketDir, '-p', String(postgres.port), '-U', 'relay'],
        { stdio: 'pipe' },
      );

    // Step 3's environment file, its placeholders replaced, its socket the throwaway server's.
    const file = asReplaced(envBlocksOf(GUIDE).find((block) => 'DATABASE_URL' in block)!);
    const url = new URL(file['DATABASE_URL']!);
    url.searchParams.set('host', postgres.socketDir);
    url.searchParams.set('port', String(postgres.port));
    for (const number of ['1', '2']) {
      const unit = Object.fromEntries(
        Object.entries(TEMPLATE).map(([name, value]) => [name, value.replaceAll('%i', number)]),
      );
      const config = readServerConfig(
        ['--testnet-node', devnet.url, '--push-threads', '0'],
        // Its port and directory: free ones here, not 808N and /var/lib.
        { ...unit, ...file, DATABASE_URL: url.href, STACKS_WATCH_PORT: '0', RELAY_DATA_DIR: join(dir.path, number) },
        join(dir.path, 'dist'),
      );
      servers.push(await startServer(config, { relayHooks: { report: () => undefined } }));
    }

    for (const [index, server] of servers.entries()) {
      expect(server.relay?.db.kind).toBe('postgres');
      const health = await call(`${server.url}/relay/health`);
      expect(health.status).toBe(200);
      expect(health.body?.['instance']).toMatchObject({ instance: `watch-${index + 1}` });
    }
    // What the instances made belongs to the recipe's role, in the recipe's database.
    const superuser = new pg.Client({ connectionString: postgres.url.replace(/\/postgres$/, '/stacks_watch') });
    await superuser.connect();
    try {
      const owners = await superuser.query<{ owner: string }>(
        "SELECT DISTINCT tableowner AS owner FROM pg_tables WHERE schemaname = 'public'",
      );
      expect(owners.rows).toEqual([{ owner: 'stacks-watch' }]);
      const instances = await superuser.query<{ name: string }>('SELECT name FROM instances ORDER BY name');
      expect(instances.rows.map((row) => row.name)).toEqual(['watch-1', 'watch-2']);
    } finally {
      await superuser.end();
    }
  });
});
