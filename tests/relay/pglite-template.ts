import { PGlite } from '@electric-sql/pglite';
import { cp, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './harness.ts';

/**
 * A new embedded database costs seconds of CPU (PGlite runs initdb in WebAssembly: 3–5 s, against half a second to
 * open a copy of one), and the relay tests start dozens of relays. `relayDataDir` hands a relay a data directory whose
 * database is a copy of one PGlite initialised once per machine and PGlite version: no table in it, so the relay still
 * migrates it from nothing, as on a first start. The launcher and compiled-server tests start on an empty directory,
 * so a first start with initdb stays proven.
 */
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    dependencies: Record<string, string>;
  }
).dependencies['@electric-sql/pglite'];
const TEMPLATE = join(tmpdir(), `stacks-watch-pglite-${VERSION}`);

let made: Promise<string> | null = null;

/** The template's directory, made (atomically: written aside, then renamed into place) if no process made it yet. */
function template(): Promise<string> {
  made ??= (async () => {
    const ready = await stat(join(TEMPLATE, 'pgdata', 'PG_VERSION')).then(
      () => true,
      () => false,
    );
    if (ready) return TEMPLATE;
    const aside = await mkdtemp(`${TEMPLATE}-making-`);
    const db = await PGlite.create(join(aside, 'pgdata'));
    await db.query('SELECT 1');
    await db.close();
    await rename(aside, TEMPLATE).catch(async (error: NodeJS.ErrnoException) => {
      // Another process put its template there first: theirs is as good.
      if (error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
      await rm(aside, { recursive: true, force: true });
    });
    return TEMPLATE;
  })();
  return made;
}

/** A temporary data directory for a relay on the embedded database, its database initialised and empty. */
export async function relayDataDir(prefix: string): Promise<{ path: string; remove(): Promise<void> }> {
  const dir = await tempDir(prefix);
  await cp(join(await template(), 'pgdata'), join(dir.path, 'pgdata'), { recursive: true });
  return dir;
}
