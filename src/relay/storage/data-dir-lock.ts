import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The embedded database is one process's: a second relay on the same directory would judge and push it too. */
const LOCK = 'relay.lock';
/** Held only while a stale lock is replaced, so that two processes replacing it cannot both win. */
const TAKEOVER = 'relay.lock.takeover';

export interface DataDirLock {
  release(): Promise<void>;
}

/** The directory is held by another live process. */
export class DataDirInUse extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
    held: string,
  ) {
    super(
      `the data directory ${dir} is in use by process ${pid} (${held}): the embedded database serves one relay at a ` +
        `time. Stop that process, or give this one another --data-dir; several instances share a PostgreSQL ` +
        `database (--database-url), not an embedded one.`,
    );
  }
}

/**
 * Takes the data directory for this process: `relay.lock` holds its pid, created atomically (a hard link of a
 * written file, which fails if the lock exists). A lock whose process is dead (killed, the machine rebooted) is
 * taken over under a second lock of the same kind, so that two starting processes cannot both replace it.
 */
export async function lockDataDir(dir: string, what = 'relay'): Promise<DataDirLock> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, LOCK);
  const mine = `${process.pid}\n${what} since ${new Date().toISOString()}\n`;
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (await createExclusive(path, mine)) return { release: () => releaseIfMine(path) };
    const holder = await readHolder(path);
    if (holder && alive(holder.pid)) throw new DataDirInUse(dir, holder.pid, holder.held);
    await takeOverStale(dir, path, holder?.pid ?? null);
  }
  throw new Error(`could not take the lock ${path}: other processes kept replacing it`);
}

/** Writes the file whole under a temporary name, then links it into place: the lock never exists half written. */
async function createExclusive(path: string, content: string): Promise<boolean> {
  const temporary = `${path}.${process.pid}`;
  await writeFile(temporary, content, { mode: 0o600 });
  try {
    await link(temporary, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

async function readHolder(path: string): Promise<{ pid: number; held: string } | null> {
  try {
    const [pid, held = ''] = (await readFile(path, 'utf8')).split('\n');
    const parsed = Number(pid);
    return Number.isInteger(parsed) && parsed > 0 ? { pid: parsed, held: held.trim() } : { pid: 0, held };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  if (pid <= 0 || pid === process.pid) return pid === process.pid;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a lock whose process is gone, only while it still names that process (re-read under the takeover lock):
 * a fresh lock another process took meanwhile is left alone.
 */
async function takeOverStale(dir: string, path: string, stalePid: number | null): Promise<void> {
  const takeover = join(dir, TAKEOVER);
  if (!(await createExclusive(takeover, `${process.pid}\n`))) {
    const other = await readHolder(takeover);
    // Its taker died mid-way: clear it and try again; a live taker finishes soon.
    if (other && !alive(other.pid)) await unlink(takeover).catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    return;
  }
  try {
    const holder = await readHolder(path);
    if (holder && holder.pid === stalePid && !alive(holder.pid)) await unlink(path).catch(() => undefined);
  } finally {
    await unlink(takeover).catch(() => undefined);
  }
}

async function releaseIfMine(path: string): Promise<void> {
  const holder = await readHolder(path);
  if (holder?.pid === process.pid) await unlink(path).catch(() => undefined);
}
