import type { AlertRules } from '../../domain/alerts/alert-rules.ts';
import type { Network } from '../../domain/network.ts';
import { decode, encode } from './codec.ts';
import type { Sql } from './sql.ts';

export interface PushSubscription {
  readonly endpoint: string;
  readonly expirationTime: number | null;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

export interface Watch {
  readonly network: Network;
  readonly principal: string;
  readonly rules: AlertRules;
}

export interface StoredWatch extends Watch {
  readonly deviceId: string;
  /** When the relay began watching it for this device (its ledger must not be older). */
  readonly addedAt: number;
}

export interface StoredDevice {
  readonly id: string;
  readonly secretHash: string;
  readonly subscription: PushSubscription;
}

interface DeviceRow {
  id: string;
  secret_hash: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  expiration_time: number | null;
}

const toDevice = (row: DeviceRow): StoredDevice => ({
  id: row.id,
  secretHash: row.secret_hash,
  subscription: {
    endpoint: row.endpoint,
    expirationTime: row.expiration_time === null ? null : Number(row.expiration_time),
    keys: { p256dh: row.p256dh, auth: row.auth },
  },
});

export async function findDevice(sql: Sql, id: string): Promise<StoredDevice | undefined> {
  const [row] = await sql.query<DeviceRow>('SELECT * FROM devices WHERE id = $1', [id]);
  return row && toDevice(row);
}

export async function allDevices(sql: Sql): Promise<StoredDevice[]> {
  return (await sql.query<DeviceRow>('SELECT * FROM devices')).map(toDevice);
}

/**
 * Creates the device or replaces its subscription and watch list in full; a watch kept from before keeps when it
 * was added (and so its ledger). Returns the watches as stored and whether the device was new, or null when the
 * id belongs to a device with another secret hash (checked in the same statement, so two first PUTs cannot race).
 */
export async function putDevice(
  sql: Sql,
  device: { id: string; secretHash: string; subscription: PushSubscription; watches: readonly Watch[] },
  now: number,
): Promise<{ created: boolean; watches: StoredWatch[] } | null> {
  const { id, subscription } = device;
  const inserted = await sql.query(
    `INSERT INTO devices (id, secret_hash, endpoint, p256dh, auth, expiration_time, created_at, updated_at, seen_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)
     ON CONFLICT (id) DO UPDATE
       SET endpoint = $3, p256dh = $4, auth = $5, expiration_time = $6, updated_at = $7, seen_at = $7
       WHERE devices.secret_hash = excluded.secret_hash
     RETURNING (xmax = 0) AS created`,
    [
      id,
      device.secretHash,
      subscription.endpoint,
      subscription.keys.p256dh,
      subscription.keys.auth,
      subscription.expirationTime,
      now,
    ],
  );
  // The id exists with another secret: nothing changes (the caller answers 401).
  if (inserted.length === 0) return null;
  const before = new Map((await watchesOf(sql, id)).map((watch) => [watchKey(watch), watch.addedAt]));
  await sql.query('DELETE FROM watches WHERE device_id = $1', [id]);
  const watches = device.watches.map((watch): StoredWatch => ({
    ...watch,
    deviceId: id,
    addedAt: before.get(watchKey(watch)) ?? now,
  }));
  for (let start = 0; start < watches.length; start += 200) {
    const chunk = watches.slice(start, start + 200);
    await sql.query(
      `INSERT INTO watches (device_id, network, principal, rules, added_at)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::text[], $5::bigint[])`,
      [
        id,
        chunk.map((w) => w.network),
        chunk.map((w) => w.principal),
        chunk.map((w) => encode(w.rules)),
        chunk.map((w) => w.addedAt),
      ],
    );
  }
  // Ledgers of watches dropped go with them: a watch added again starts from the tip.
  await sql.query(
    `DELETE FROM ledgers l WHERE l.device_id = $1 AND NOT EXISTS (SELECT 1 FROM watches w
       WHERE w.device_id = l.device_id AND w.network = l.network AND w.principal = l.principal)`,
    [id],
  );
  return { created: Boolean((inserted[0] as { created?: boolean } | undefined)?.created), watches };
}

/** The device checked in (a catch-up): it is not idle. */
export async function checkIn(sql: Sql, id: string, now: number): Promise<void> {
  await sql.query('UPDATE devices SET seen_at = $2 WHERE id = $1 AND seen_at < $2', [id, now]);
}

/**
 * Deletes, with their watches, the devices whose push subscription has expired or that have not checked in for
 * `maxIdleMs`, decided in the statement that deletes them (a device checking in meanwhile is kept). Their ids.
 */
export async function deleteExpiredDevices(sql: Sql, now: number, maxIdleMs: number): Promise<string[]> {
  // Their watches go in the same statement, all at once: left to the cascade they would be deleted a device at a time,
  // and the totals the caps read (migrations.ts) rewritten once for each.
  const rows = await sql.query<{ id: string }>(
    `WITH gone AS (
       DELETE FROM devices WHERE seen_at <= $1 OR (expiration_time IS NOT NULL AND expiration_time <= $2) RETURNING id),
     unwatched AS (DELETE FROM watches WHERE device_id IN (SELECT id FROM gone))
     SELECT id FROM gone`,
    [now - maxIdleMs, now],
  );
  return rows.map((row) => row.id);
}

export async function deleteDevice(sql: Sql, id: string): Promise<boolean> {
  return (await sql.query('DELETE FROM devices WHERE id = $1 RETURNING id', [id])).length > 0;
}

/**
 * Deletes the device only while its subscription is still `endpoint` (the one its push service ended), checked in the
 * same statement: a device registered anew with another endpoint meanwhile is kept. True when it was deleted.
 */
export async function deleteDeviceAt(sql: Sql, id: string, endpoint: string): Promise<boolean> {
  const deleted = await sql.query('DELETE FROM devices WHERE id = $1 AND endpoint = $2 RETURNING id', [id, endpoint]);
  return deleted.length > 0;
}

interface WatchRow {
  device_id: string;
  network: Network;
  principal: string;
  rules: string;
  added_at: number;
}

const toWatch = (row: WatchRow): StoredWatch => ({
  deviceId: row.device_id,
  network: row.network,
  principal: row.principal,
  rules: decode<AlertRules>(row.rules),
  addedAt: Number(row.added_at),
});

export async function watchesOf(sql: Sql, deviceId: string): Promise<StoredWatch[]> {
  return (await sql.query<WatchRow>('SELECT * FROM watches WHERE device_id = $1', [deviceId])).map(toWatch);
}

export async function allWatches(sql: Sql): Promise<StoredWatch[]> {
  return (await sql.query<WatchRow>('SELECT * FROM watches')).map(toWatch);
}

const watchKey = (watch: { network: string; principal: string }): string => `${watch.network}:${watch.principal}`;
