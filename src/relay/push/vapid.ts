import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import webpush from 'web-push';
import { StartRefusal } from '../start-failure.ts';

export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
  /** Who runs this relay, for push services to contact (VAPID `sub`). */
  readonly subject: string;
}

const FILE = 'vapid.json';

/**
 * The key pair a `vapid.json` holds; null when there is none. A file that holds no key pair stops the start, naming
 * itself: a new key would have every device subscribed with the old one refused.
 */
export async function readVapidFile(path: string): Promise<Pick<VapidKeys, 'publicKey' | 'privateKey'> | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  let stored: unknown;
  try {
    stored = JSON.parse(text);
  } catch (error) {
    throw new StartRefusal(
      `${path} is not JSON (${(error as Error).message}): restore it from a backup (mode 600), or move it away to ` +
        `have a new key made (devices subscribed with the old one then register again)`,
    );
  }
  const pair = stored as Partial<VapidKeys> | null;
  if (typeof pair?.publicKey === 'string' && typeof pair.privateKey === 'string')
    return { publicKey: pair.publicKey, privateKey: pair.privateKey };
  throw new StartRefusal(
    `${path} holds no VAPID key pair ({"publicKey", "privateKey"}): restore it from a backup (mode 600), or move ` +
      `it away to have a new key made (devices subscribed with the old one then register again)`,
  );
}

/** The relay's VAPID keys: generated on first start, kept in the data directory (readable by its owner only). */
export async function loadVapidKeys(dataDir: string, subject: string): Promise<VapidKeys> {
  const stored = await readVapidFile(join(dataDir, FILE));
  if (stored) return { ...stored, subject };
  const keys = webpush.generateVAPIDKeys();
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await writeFile(join(dataDir, FILE), JSON.stringify(keys, null, 2), { mode: 0o600, flag: 'wx' });
  return { ...keys, subject };
}
