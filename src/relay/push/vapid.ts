import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import webpush from 'web-push';

export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
  /** Who runs this relay, for push services to contact (VAPID `sub`). */
  readonly subject: string;
}

const FILE = 'vapid.json';

/** The relay's VAPID keys: generated on first start, kept in the data directory (readable by its owner only). */
export async function loadVapidKeys(dataDir: string, subject: string): Promise<VapidKeys> {
  const path = join(dataDir, FILE);
  try {
    const stored = JSON.parse(await readFile(path, 'utf8')) as Partial<VapidKeys>;
    if (typeof stored.publicKey === 'string' && typeof stored.privateKey === 'string')
      return { publicKey: stored.publicKey, privateKey: stored.privateKey, subject };
    throw new Error(`${path} holds no VAPID keys; move it away to have new ones generated`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const keys = webpush.generateVAPIDKeys();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(path, JSON.stringify(keys, null, 2), { mode: 0o600, flag: 'wx' });
  return { ...keys, subject };
}
