import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadVapidKeys, readVapidFile, type VapidKeys } from '../push/vapid.ts';
import { StartRefusal } from '../start-failure.ts';
import type { Sql } from '../storage/sql.ts';

type KeyPair = Pick<VapidKeys, 'publicKey' | 'privateKey'>;

async function storedPair(db: Sql): Promise<KeyPair | null> {
  const [row] = await db.query<{ value: string }>(`SELECT value FROM facts WHERE kind = 'vapid' AND key = 'keys'`);
  return row ? (JSON.parse(row.value) as KeyPair) : null;
}

/** Whether the shared database holds the instances' VAPID key (a missing vapid.json is then no loss). */
export async function hasSharedVapidKey(db: Sql): Promise<boolean> {
  return (await storedPair(db)) !== null;
}

/**
 * One VAPID key for every instance on a PostgreSQL database: every device subscribed with its public half, whichever
 * instance it registered through. The first instance's key (its vapid.json, made if missing) is stored in the
 * database; every later one uses it, with or without a vapid.json of its own, and refuses to start with a different
 * one (its pushes would all be refused).
 */
export async function sharedVapidKeys(db: Sql, dataDir: string, subject: string): Promise<VapidKeys> {
  const path = join(dataDir, 'vapid.json');
  const shared = await storedPair(db);
  const local = await readVapidFile(path);
  if (shared) {
    if (local && local.publicKey !== shared.publicKey)
      throw new StartRefusal(
        `${path} holds another VAPID key than the one the instances on this database share: devices subscribed ` +
          `with the database's, so this key's pushes would be refused. Move ${path} away (the shared key is used).`,
      );
    return { ...shared, subject };
  }
  const mine = await loadVapidKeys(dataDir, subject);
  await db.query(
    `INSERT INTO facts (kind, key, value) VALUES ('vapid', 'keys', $1) ON CONFLICT (kind, key) DO NOTHING`,
    [JSON.stringify({ publicKey: mine.publicKey, privateKey: mine.privateKey })],
  );
  const winner = (await storedPair(db))!;
  if (winner.publicKey === mine.publicKey) return mine;
  // Two first instances at once, each with a key just made: the one stored first is everyone's.
  if (local)
    throw new StartRefusal(`${path} holds another VAPID key than the one the instances on this database share`);
  await writeFile(path, JSON.stringify(winner, null, 2), { mode: 0o600 });
  return { ...winner, subject };
}
