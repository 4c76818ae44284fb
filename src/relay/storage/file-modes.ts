import { chmod, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The data directory holds the watched addresses, the push keys and the VAPID private key: only its owner may read
 * it (directories 0700, files 0600). Applied to what is there at start (an older relay made them 0755 and 0666);
 * the launcher's umask keeps what PGlite creates later the same.
 */
export async function restrictDataDir(dir: string): Promise<void> {
  await chmod(dir, 0o700);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await restrictDataDir(path);
    else if (entry.isFile()) await chmod(path, 0o600);
  }
}
