import type { AlertPhase } from '../../domain/alert-ledger.ts';
import type { Network } from '../../domain/network.ts';
import type { Sql } from './sql.ts';

/** One state of one alert as the relay tells it: the contract's RelayAlert. */
export interface RelayAlert {
  readonly cursor: string;
  readonly id: string;
  readonly network: Network;
  readonly principal: string;
  readonly txId: string | null;
  readonly phase: AlertPhase;
  readonly title: string;
  readonly body: string;
  readonly path: string;
  readonly at: number;
}

/** Push urgency: high for a confirmed incoming transfer, else normal. */
export type Urgency = 'high' | 'normal';

/** How many alerts each device keeps for `GET …/alerts`. */
export const KEPT_PER_DEVICE = 500;
export const PAGE_SIZE = 200;

/**
 * Appends a new alert state to the device's log, which is also the send queue: it waits as `queued` until the
 * push service accepts it. The cursor is the device's next number, taken in the same transaction.
 */
export async function appendAlert(
  sql: Sql,
  deviceId: string,
  alert: Omit<RelayAlert, 'cursor'>,
  urgency: Urgency,
): Promise<RelayAlert> {
  const [row] = await sql.query<{ last_cursor: number }>(
    'UPDATE devices SET last_cursor = last_cursor + 1 WHERE id = $1 RETURNING last_cursor',
    [deviceId],
  );
  if (!row) throw new Error(`device ${deviceId} is gone`);
  const cursor = Number(row.last_cursor);
  const stored: RelayAlert = { cursor: String(cursor), ...alert };
  await sql.query(
    `INSERT INTO deliveries (device_id, cursor, alert_id, phase, urgency, alert) VALUES ($1, $2, $3, $4, $5, $6)`,
    [deviceId, cursor, alert.id, alert.phase, urgency, JSON.stringify(stored)],
  );
  // Earlier states of the same alert not yet told are replaced by this one (as the push Topic would).
  await sql.query(
    `UPDATE deliveries SET status = 'superseded' WHERE device_id = $1 AND alert_id = $2 AND cursor < $3
       AND status = 'queued'`,
    [deviceId, alert.id, cursor],
  );
  await sql.query(`DELETE FROM deliveries WHERE device_id = $1 AND cursor <= $2 AND status <> 'queued'`, [
    deviceId,
    cursor - KEPT_PER_DEVICE,
  ]);
  return stored;
}

export async function alertsAfter(
  sql: Sql,
  deviceId: string,
  after: number,
): Promise<{ alerts: RelayAlert[]; more: boolean }> {
  const rows = await sql.query<{ alert: string }>(
    `SELECT alert FROM deliveries WHERE device_id = $1 AND cursor > $2 ORDER BY cursor LIMIT $3`,
    [deviceId, after, PAGE_SIZE + 1],
  );
  const alerts = rows.slice(0, PAGE_SIZE).map((row) => JSON.parse(row.alert) as RelayAlert);
  return { alerts, more: rows.length > PAGE_SIZE };
}

export async function lastCursor(sql: Sql, deviceId: string): Promise<string> {
  const [row] = await sql.query<{ last_cursor: number }>('SELECT last_cursor FROM devices WHERE id = $1', [deviceId]);
  return String(row?.last_cursor ?? 0);
}

export interface QueuedSend {
  readonly deviceId: string;
  readonly cursor: number;
  readonly tries: number;
  readonly urgency: Urgency;
  readonly alert: RelayAlert;
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
}

/** What is due to be sent now, oldest first. */
export async function dueSends(sql: Sql, now: number, limit: number): Promise<QueuedSend[]> {
  const rows = await sql.query<{
    device_id: string;
    cursor: number;
    tries: number;
    urgency: Urgency;
    alert: string;
    endpoint: string;
    p256dh: string;
    auth: string;
  }>(
    `SELECT q.device_id, q.cursor, q.tries, q.urgency, q.alert, d.endpoint, d.p256dh, d.auth
       FROM deliveries q JOIN devices d ON d.id = q.device_id
      WHERE q.status = 'queued' AND q.next_try_at <= $1 ORDER BY q.next_try_at, q.cursor LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => ({
    deviceId: row.device_id,
    cursor: Number(row.cursor),
    tries: Number(row.tries),
    urgency: row.urgency,
    alert: JSON.parse(row.alert) as RelayAlert,
    endpoint: row.endpoint,
    keys: { p256dh: row.p256dh, auth: row.auth },
  }));
}

export async function nextDueAt(sql: Sql): Promise<number | null> {
  const [row] = await sql.query<{ at: number | null }>(
    `SELECT min(next_try_at) AS at FROM deliveries WHERE status = 'queued'`,
  );
  return row?.at === null || row?.at === undefined ? null : Number(row.at);
}

export async function markTold(sql: Sql, send: QueuedSend, at: number): Promise<void> {
  await sql.query(`UPDATE deliveries SET status = 'told', told_at = $3 WHERE device_id = $1 AND cursor = $2`, [
    send.deviceId,
    send.cursor,
    at,
  ]);
}

/** Tries again later; after the last try the state is given up (`failed`), still listed for the app to fetch. */
export async function retryLater(sql: Sql, send: QueuedSend, at: number, giveUp: boolean): Promise<void> {
  await sql.query(
    `UPDATE deliveries SET tries = tries + 1, next_try_at = $3, status = $4 WHERE device_id = $1 AND cursor = $2`,
    [send.deviceId, send.cursor, at, giveUp ? 'failed' : 'queued'],
  );
}

/** The push service asked to slow down: nothing more goes to this device before `at`. */
export async function holdDevice(sql: Sql, deviceId: string, at: number): Promise<void> {
  await sql.query(
    `UPDATE deliveries SET next_try_at = greatest(next_try_at, $2) WHERE device_id = $1 AND status = 'queued'`,
    [deviceId, at],
  );
}
