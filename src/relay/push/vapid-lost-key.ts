import { access } from 'node:fs/promises';
import { join } from 'node:path';
import type { Log } from '../log.ts';
import { StartRefusal } from '../start-failure.ts';
import type { Database } from '../storage/sql.ts';

/**
 * Before a new VAPID key is made: with devices in the database and no `vapid.json`, every device subscribed with the
 * lost key's public half, and a new key would have each of their pushes refused while nobody is told. The relay
 * refuses to start, saying how to recover, unless the operator chose to forget those devices.
 */
export async function checkLostVapidKey(db: Database, dataDir: string, forget: number | null, log: Log): Promise<void> {
  const path = join(dataDir, 'vapid.json');
  try {
    await access(path);
    return;
  } catch {
    // Missing: only a problem when devices were subscribed with it.
  }
  const [row] = await db.query<{ devices: number | string }>('SELECT count(*) AS devices FROM devices');
  const devices = Number(row?.devices ?? 0);
  if (devices === 0) return;
  if (forget !== devices)
    throw new StartRefusal(
      `${path} is missing, but the database holds ${devices} device(s) subscribed with its public key: a new key ` +
        `would have every push to them refused. Restore vapid.json from a backup into ${dataDir} (mode 600) and ` +
        `start again; or, if it is lost for good, start once with --forget-devices-without-key ${devices} (this ` +
        `count: any other is refused): those devices are deleted and their users turn "Alerts when the app is ` +
        `closed" off and on again to register with the new key.` +
        (forget === null ? '' : ` (--forget-devices-without-key was given ${forget}.)`),
    );
  // The watches first, in one statement (the cascade would delete them a device at a time).
  await db.transaction(async (sql) => {
    await sql.query('DELETE FROM watches');
    await sql.query('DELETE FROM devices');
  });
  log.warn('devices forgotten with the lost VAPID key', { devices });
}
