import type { Watch } from '../storage/devices.ts';
import type { Database, Sql } from '../storage/sql.ts';
import { ClientHash } from './client-hash.ts';

/**
 * How much one relay takes on: new devices per client address per hour, devices, distinct principals, principals a
 * device adds to its list per hour (an edit within what it follows is free), and how long a device may stay idle.
 */
export interface RegistrationCaps {
  readonly devicesPerClientPerHour: number;
  readonly devices: number;
  readonly principals: number;
  readonly newPrincipalsPerDevicePerHour: number;
  readonly deviceMaxIdleDays: number;
}

export const DEFAULT_CAPS: RegistrationCaps = {
  devicesPerClientPerHour: 20,
  devices: 100_000,
  principals: 500_000,
  // Two whole lists (1,000 addresses each) an hour: a first registration and a full change of mind.
  newPrincipalsPerDevicePerHour: 2000,
  deviceMaxIdleDays: 30,
};

/** Held for the length of a registration's transaction: the caps are decided one registration at a time. */
const CAPS_LOCK = 74117012;

const HOUR_MS = 3_600_000;

/** A refusal the API answers with 429, a `Retry-After` and these words. */
export interface CapRefusal {
  readonly code: 'too_many_new_devices' | 'relay_full_devices' | 'relay_full_principals' | 'too_many_new_principals';
  readonly message: string;
  readonly retryAfterSeconds: number;
}

/** The caps around a device's registration, decided in its write transaction. */
export class RegistrationGuard {
  private readonly clients: ClientHash;

  constructor(
    private readonly db: Database,
    private readonly caps: RegistrationCaps = DEFAULT_CAPS,
  ) {
    this.clients = new ClientHash(db);
  }

  /**
   * Runs `put` in one transaction after the caps allow it, or says which cap refused it; a refusal stores nothing.
   * A device it creates is counted against its client address's hour in the same transaction.
   */
  async register<T extends { created: boolean } | null>(
    device: { id: string; client: string; exists: boolean; watches: readonly Watch[] },
    now: number,
    put: (sql: Sql) => Promise<T>,
  ): Promise<{ refused: CapRefusal } | { stored: T }> {
    const client = device.exists ? null : await this.clients.of(device.client);
    return this.db.transaction(async (sql) => {
      // At READ COMMITTED two registrations would each count the totals and the hour without the other's rows and
      // both take the last room; under this lock (one for every instance on the database) each counts what the one
      // before it committed.
      await sql.query('SELECT pg_advisory_xact_lock($1::bigint)', [CAPS_LOCK]);
      const added = await principalsAdded(sql, device);
      const refused =
        (client === null ? null : await newDevicesRefusal(sql, this.caps.devicesPerClientPerHour, client, now)) ??
        (await totalsRefusal(sql, this.caps, { ...device, created: !device.exists })) ??
        (await churnRefusal(sql, this.caps.newPrincipalsPerDevicePerHour, device.id, added, now));
      if (refused) return { refused };
      const stored = await put(sql);
      if (client !== null && stored?.created)
        await sql.query('INSERT INTO device_additions (client, at) VALUES ($1, $2)', [client, now]);
      if (stored && added > 0)
        await sql.query('INSERT INTO principal_additions (device_id, at, added) VALUES ($1, $2, $3)', [
          device.id,
          now,
          added,
        ]);
      return { stored };
    });
  }
}

/**
 * New devices per client address in a sliding hour, from `device_additions` (every instance's, kept across
 * restarts). Rows an hour old are deleted first, every client's: the table holds the last hour's new devices, no more.
 * The address is at its cap when it has a `cap`-th newest row; that one leaving the hour makes room for one more.
 * At most one row comes back, however many the address has in the hour.
 */
async function newDevicesRefusal(sql: Sql, cap: number, client: string, now: number): Promise<CapRefusal | null> {
  await sql.query('DELETE FROM device_additions WHERE at <= $1', [now - HOUR_MS]);
  const [last] = await sql.query<{ at: number | string }>(
    'SELECT at FROM device_additions WHERE client = $1 ORDER BY at DESC OFFSET $2 LIMIT 1',
    [client, cap - 1],
  );
  if (!last) return null;
  const freeAt = Number(last.at) + HOUR_MS;
  const wait = Math.max(1, Math.ceil((freeAt - now) / 1000));
  return {
    code: 'too_many_new_devices',
    message: `this address registered ${cap} new devices in the last hour, the most this relay allows; try again in ${wait} s`,
    retryAfterSeconds: wait,
  };
}

/**
 * Checked in the device's write transaction: the totals it would leave behind, against the caps. The totals are kept
 * by the database as the rows change (`relay_totals`, `followed`: migrations.ts), so a registration reads them and
 * looks up its own list's principals, however many devices and watches the relay has.
 */
async function totalsRefusal(
  sql: Sql,
  caps: RegistrationCaps,
  device: { id: string; created: boolean; watches: readonly Watch[] },
): Promise<CapRefusal | null> {
  // Only principals nobody follows yet can take the relay past its cap: a list that adds none (unchanged, smaller,
  // or a rotated subscription) is never refused. After it: the principals followed now, with those nobody follows
  // yet, without those only this device follows and its new list drops. One statement, so one snapshot: a delete
  // committed between two reads would count a principal it unfollowed as followed and as new.
  const networks = device.watches.map((watch) => watch.network);
  const principals = device.watches.map((watch) => watch.principal);
  const [row] = await sql.query<{
    devices: number | string;
    principals: number | string;
    added: number | string;
    dropped: number | string;
  }>(
    `WITH listed AS (SELECT DISTINCT * FROM unnest($2::text[], $3::text[]) AS listed(network, principal))
     SELECT t.devices, t.principals,
       (SELECT count(*) FROM listed WHERE NOT EXISTS (SELECT 1 FROM followed f
          WHERE f.network = listed.network AND f.principal = listed.principal)) AS added,
       (SELECT count(*) FROM watches w JOIN followed f ON f.network = w.network AND f.principal = w.principal
         WHERE w.device_id = $1 AND f.devices = 1 AND NOT EXISTS (SELECT 1 FROM listed
           WHERE listed.network = w.network AND listed.principal = w.principal)) AS dropped
     FROM relay_totals t`,
    [device.id, networks, principals],
  );
  if (device.created && Number(row?.devices ?? 0) >= caps.devices)
    return {
      code: 'relay_full_devices',
      message: `this relay serves ${caps.devices} devices, its limit; try again in an hour, or use another relay`,
      retryAfterSeconds: 3600,
    };
  const added = Number(row?.added ?? 0);
  if (added === 0) return null;
  const total = Number(row?.principals ?? 0) + added - Number(row?.dropped ?? 0);
  if (total > caps.principals)
    return {
      code: 'relay_full_principals',
      message: `this relay follows at most ${caps.principals} addresses and this list would take it to ${total}; try again in an hour with fewer addresses, or use another relay`,
      retryAfterSeconds: 3600,
    };
  return null;
}

/** The principals of the new list this device does not follow now (each network and principal once). */
async function principalsAdded(sql: Sql, device: { id: string; watches: readonly Watch[] }): Promise<number> {
  const [row] = await sql.query<{ n: number | string }>(
    `SELECT count(*) AS n FROM (SELECT DISTINCT * FROM unnest($2::text[], $3::text[])) AS listed(network, principal)
      WHERE NOT EXISTS (SELECT 1 FROM watches w
        WHERE w.device_id = $1 AND w.network = listed.network AND w.principal = listed.principal)`,
    [device.id, device.watches.map((watch) => watch.network), device.watches.map((watch) => watch.principal)],
  );
  return Number(row?.n ?? 0);
}

/**
 * New principals per device in a sliding hour: what it added in the last hour and what this list adds, against the
 * cap. Removing and keeping cost nothing, so a device edits its list freely; replacing a whole list with another
 * costs the whole list, so a stranger cannot churn the relay's follow set from one device.
 */
async function churnRefusal(
  sql: Sql,
  cap: number,
  deviceId: string,
  added: number,
  now: number,
): Promise<CapRefusal | null> {
  if (added === 0) return null;
  await sql.query('DELETE FROM principal_additions WHERE device_id = $1 AND at <= $2', [deviceId, now - HOUR_MS]);
  const recent = await sql.query<{ at: number | string; added: number | string }>(
    'SELECT at, added FROM principal_additions WHERE device_id = $1 ORDER BY at',
    [deviceId],
  );
  const hour = recent.reduce((sum, row) => sum + Number(row.added), 0);
  if (hour + added <= cap) return null;
  let spent = hour;
  // The wait: until enough of the hour's additions are an hour old for this list to fit, or an hour for a list
  // that adds more than the cap by itself.
  let freeAt = now + HOUR_MS;
  for (const row of recent) {
    spent -= Number(row.added);
    if (spent + added <= cap) {
      freeAt = Number(row.at) + HOUR_MS;
      break;
    }
  }
  const wait = Math.max(1, Math.ceil((freeAt - now) / 1000));
  return {
    code: 'too_many_new_principals',
    message:
      added > cap
        ? `this list adds ${added} addresses this device does not follow; this relay takes at most ${cap} new addresses a device an hour; send a shorter list`
        : `this list adds ${added} ${added === 1 ? 'address' : 'addresses'} this device does not follow, and it added ${hour} in the last hour; this relay takes at most ${cap} new addresses a device an hour (editing within what it follows is free); try again in ${wait} s`,
    retryAfterSeconds: wait,
  };
}
