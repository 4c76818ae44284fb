import { createHmac, randomBytes } from 'node:crypto';
import type { Sql } from '../storage/sql.ts';

/**
 * The name a client is counted under in the database (`device_additions`): an HMAC-SHA-256 of its bucket
 * (client-key.ts: an IPv4 address, an IPv6 /64), cut to 22 characters (132 bits). The cap needs only "the same
 * client as before"; a plain hash would not hide an IPv4 address (every one of the 2^32 is hashed in minutes), a keyed
 * one is a name only to whoever also holds the key, so a row seen alone (a query log, a dump of the table) names
 * nobody. The key is 32 random bytes stored once in `facts` (kind `caps`) by the first relay that needs it, and read
 * by every instance on the database: the hour is counted as one across them and across restarts.
 */
export class ClientHash {
  private key: Promise<Buffer> | null = null;

  constructor(private readonly db: Sql) {}

  async of(client: string): Promise<string> {
    this.key ??= sharedKey(this.db).catch((error: unknown) => {
      this.key = null;
      throw error;
    });
    return createHmac('sha256', await this.key)
      .update(client, 'utf8')
      .digest('base64url')
      .slice(0, 22);
  }
}

/** The database's key, made here if no relay made it yet (two first relays at once: the one stored first wins). */
async function sharedKey(db: Sql): Promise<Buffer> {
  await db.query(
    `INSERT INTO facts (kind, key, value) VALUES ('caps', 'client-hash-key', $1) ON CONFLICT (kind, key) DO NOTHING`,
    [randomBytes(32).toString('base64url')],
  );
  const [row] = await db.query<{ value: string }>(
    `SELECT value FROM facts WHERE kind = 'caps' AND key = 'client-hash-key'`,
  );
  if (!row) throw new Error('the client hash key was stored but cannot be read back');
  return Buffer.from(row.value, 'base64url');
}
