import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './harness.ts';

/** Where the machine's PostgreSQL server binaries are (`pg_config --bindir`, else Debian's versioned directory). */
export function postgresBinDir(): string {
  const candidates: string[] = [];
  try {
    candidates.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim());
  } catch {
    // No pg_config on PATH: look where Debian puts the server.
  }
  if (existsSync('/usr/lib/postgresql'))
    for (const version of readdirSync('/usr/lib/postgresql').sort().reverse())
      candidates.push(join('/usr/lib/postgresql', version, 'bin'));
  const found = candidates.find((dir) => existsSync(join(dir, 'postgres')) && existsSync(join(dir, 'initdb')));
  if (!found)
    throw new Error('PostgreSQL server binaries not found: install Debian\'s "postgresql" package (.ci/run does)');
  return found;
}

export interface RunningPostgres {
  readonly url: string;
  /** The directory of its Unix socket (`.s.PGSQL.<port>`), and the port. */
  readonly socketDir: string;
  readonly port: number;
  /** Shuts the server down (fast: open connections are cut), keeping its data for `up`. */
  down(): Promise<void>;
  /** Starts it again on the same port and data. */
  up(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL server: a copy of a freshly initialised data directory in a temporary one, started on a free
 * loopback port. As root the server runs as the `postgres` user (it refuses to run as root).
 */
export async function startPostgres(): Promise<RunningPostgres> {
  const bin = postgresBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'relay-pg-'));
  const data = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run: Run = (command, args) => {
    const path = command === 'cp' ? command : join(bin, command);
    return asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  };
  if (asRoot) ownedByPostgres(dir);
  const [copy, copyArgs] = run('cp', ['-a', join(template(bin, run), 'data'), data]);
  execFileSync(copy, copyArgs, { stdio: 'ignore' });
  const port = await freePort();
  const [postgres, args] = run('postgres', [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'fsync=off',
  ]);
  const url = `postgres://relay@127.0.0.1:${port}/postgres`;
  let child: ChildProcess | null = null;
  const up = async () => {
    const started = spawn(postgres, args, { stdio: 'ignore' });
    child = started;
    await waitUntilReady(url, started);
  };
  const down = async () => {
    const running = child;
    if (!running || running.exitCode !== null) return;
    // The server itself (runuser may not pass signals on): its pid is the first line of postmaster.pid.
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    process.kill(pid, 'SIGINT');
    await new Promise((resolve) => (running.exitCode !== null ? resolve(null) : running.once('exit', resolve)));
  };
  await up();
  return {
    url,
    socketDir: dir,
    port,
    down,
    up,
    async stop() {
      await down();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

type Run = (command: string, args: string[]) => [string, string[]];

/** The directory (made now, 0700) belongs to the server's user when tests run as root. */
function ownedByPostgres(dir: string): void {
  const { uid, gid } = userIds('postgres');
  chownSync(dir, uid, gid);
  chmodSync(dir, 0o700);
}

/**
 * A data directory initialised once per machine and server version (initdb costs a second of CPU and several of wall
 * beside a busy suite; a copy, a tenth of that): written aside, then renamed into place. Each server starts on a copy
 * of it, as it started on a fresh initdb's: no database but the built-in ones.
 */
function template(bin: string, run: Run): string {
  const version = /\d+(\.\d+)*/.exec(execFileSync(join(bin, 'postgres'), ['--version'], { encoding: 'utf8' }))?.[0];
  const path = join(tmpdir(), `stacks-watch-postgres-${version}`);
  if (existsSync(join(path, 'data', 'PG_VERSION'))) return path;
  const aside = mkdtempSync(`${path}-making-`);
  if (process.getuid?.() === 0) ownedByPostgres(aside);
  const [initdb, initArgs] = run('initdb', [
    ...['-D', join(aside, 'data'), '-U', 'relay', '--auth=trust', '-E', 'UTF8', '--no-sync'],
  ]);
  execFileSync(initdb, initArgs, { stdio: 'ignore' });
  try {
    renameSync(aside, path);
  } catch (error) {
    // Another process put its template there first: theirs is as good.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw error;
    rmSync(aside, { recursive: true, force: true });
  }
  return path;
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim());
  const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim());
  return { uid, gid };
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  const until = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`postgres exited with ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}
