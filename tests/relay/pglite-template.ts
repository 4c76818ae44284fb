import { PGlite } from '@electric-sql/pglite';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase } from '../../src/relay/storage/sql.ts';
import { tempDir } from './harness.ts';

/**
 * A new embedded database costs seconds of CPU (PGlite runs initdb in WebAssembly: 3–5 s, against half a second to
 * open a copy of one), and the relay tests start dozens of relays. Two templates are made once per machine, PGlite
 * version and schema: an empty database, and one the relay's migrations have run on. `relayDataDir` hands a relay a
 * copy of the migrated one, so it starts as on any start after its first (the migrations, a third of a second of CPU
 * each start, find nothing to do); `emptyDataDir` a copy of the empty one, for the tests of the migrations. The
 * launcher and compiled-server tests start on an empty directory, so a first start with initdb and every migration
 * stays proven.
 */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  }
).dependencies['@electric-sql/pglite'];
// The migrations module as written (its steps and how it applies them): a change to either makes a new template.
const SCHEMA = createHash('sha256')
  .update(readFileSync(new URL('../../src/relay/storage/migrations.ts', import.meta.url)))
  .digest('hex')
  .slice(0, 12);
const run = promisify(execFile);
const EMPTY = join(tmpdir(), `stacks-watch-pglite-${VERSION}`);
const MIGRATED = join(tmpdir(), `stacks-watch-pglite-${VERSION}-schema-${SCHEMA}`);

/**
 * The template at `path`, made (atomically: `fill` writes a directory aside, which is then renamed into place) if no
 * process made it yet.
 */
async function made(path: string, fill: (aside: string) => Promise<void>): Promise<string> {
  const ready = await stat(join(path, 'pgdata', 'PG_VERSION')).then(
    () => true,
    () => false,
  );
  if (ready) return path;
  const aside = await mkdtemp(`${path}-making-`);
  await fill(aside);
  await rename(aside, path).catch(async (error: NodeJS.ErrnoException) => {
    // Another process put its template there first: theirs is as good.
    if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    await rm(aside, { recursive: true, force: true });
  });
  return path;
}

let empty: Promise<string> | null = null;
let migrated: Promise<string> | null = null;

const emptyTemplate = (): Promise<string> =>
  (empty ??= made(EMPTY, async (aside) => {
    const db = await PGlite.create(join(aside, 'pgdata'));
    await db.query('SELECT 1');
    await db.close();
  }));

const migratedTemplate = (): Promise<string> =>
  (migrated ??= made(MIGRATED, async (aside) => {
    await cp(join(await emptyTemplate(), 'pgdata'), join(aside, 'pgdata'), { recursive: true });
    const db = await openDatabase({ dataDir: aside });
    await migrate(db);
    await db.close();
  }));

/** A copy of the template's database: cp(1) copies its thousand files in a fifth of the CPU node's fs.cp takes. */
async function copyOf(template: Promise<string>, prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await tempDir(prefix);
  await run('cp', ['-R', join(await template, 'pgdata'), join(dir.path, 'pgdata')]);
  return dir;
}

/** A temporary data directory for a relay on the embedded database, its schema migrated and no row in it. */
export const relayDataDir = (prefix: string): Promise<{ path: string; remove(): Promise<void> }> =>
  copyOf(migratedTemplate(), prefix);

/** A temporary data directory whose embedded database is initialised and empty: no table in it. */
export const emptyDataDir = (prefix: string): Promise<{ path: string; remove(): Promise<void> }> =>
  copyOf(emptyTemplate(), prefix);
