import type { RelayAlert } from '../../domain/relay/relay-message.ts';
import type { Database, Sql } from './sql.ts';

/** One state of one alert as the relay tells it: the contract's RelayAlert, declared in domain/. */
export type { RelayAlert };

/** Push urgency: high for a confirmed incoming transfer, else normal. */
export type Urgency = 'high' | 'normal';

/** How many alerts each device keeps for `GET …/alerts`. */
export const KEPT_PER_DEVICE = 500;
export const PAGE_SIZE = 200;

export interface NewAlert {
  readonly deviceId: string;
  readonly alert: Omit<RelayAlert, 'cursor'>;
  readonly urgency: Urgency;
  /** Kept in the log for the device's catch-up, never pushed: another alert tells it (AlertItem.quiet). */
  readonly quiet?: boolean;
}

/**
 * Appends new alert states to their devices' logs, which are also the send queue: each waits as `queued` until the
 * push service accepts it. Set-based, for any number of devices at once: each device's cursor is bumped once by its
 * count (the row lock holds until the transaction ends), its states numbered in the order given. A device deleted
 * meanwhile stores nothing: its entries come back null.
 */
export async function appendAlerts(sql: Sql, alerts: readonly NewAlert[]): Promise<(RelayAlert | null)[]> {
  return (await appendClaimed(sql, alerts)).stored;
}

/** appendAlerts, the states claimed by the instance that stores them; with each device's 429 hold, if any. */
export async function appendClaimed(
  sql: Sql,
  alerts: readonly NewAlert[],
  /** The instance that stores them claims them: it sends them (null on the embedded database: nobody else could). */
  claimer: string | null = null,
): Promise<{ stored: (RelayAlert | null)[]; heldUntil: Map<string, number> }> {
  if (alerts.length === 0) return { stored: [], heldUntil: new Map() };
  const counts = new Map<string, number>();
  for (const { deviceId } of alerts) counts.set(deviceId, (counts.get(deviceId) ?? 0) + 1);
  // Devices in id order: two instances' batches lock the rows they share in the same order, and never deadlock.
  const ids = [...counts.keys()].sort();
  const bumped = await sql.query<{ id: string; last_cursor: number; held_until: number }>(
    `UPDATE devices d SET last_cursor = d.last_cursor + n.count
       FROM unnest($1::text[], $2::bigint[]) AS n(id, count) WHERE d.id = n.id
     RETURNING d.id, d.last_cursor, d.held_until`,
    [ids, ids.map((id) => counts.get(id)!)],
  );
  // A device its push service asked to slow down (on any instance): its new states wait until then too.
  const heldUntil = new Map(
    bumped.flatMap((row) => (Number(row.held_until) > 0 ? [[row.id, Number(row.held_until)]] : [])),
  );
  const next = new Map(bumped.map((row) => [row.id, Number(row.last_cursor) - (counts.get(row.id) ?? 0) + 1]));
  const last = new Map(bumped.map((row) => [row.id, Number(row.last_cursor)]));
  const stored = alerts.map(({ deviceId, alert }): RelayAlert | null => {
    const cursor = next.get(deviceId);
    if (cursor === undefined) return null;
    next.set(deviceId, cursor + 1);
    return { cursor: String(cursor), ...alert };
  });
  const rows = alerts.flatMap((given, index) => {
    const alert = stored[index];
    return alert ? [{ ...given, alert }] : [];
  });
  if (rows.length === 0) return { stored, heldUntil };
  await sql.query(
    `INSERT INTO deliveries (device_id, cursor, alert_id, phase, urgency, alert, status, next_try_at, claimed_by)
       SELECT *, $9::text FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[],
         $7::text[], $8::bigint[])`,
    [
      rows.map((row) => row.deviceId),
      rows.map((row) => Number(row.alert.cursor)),
      rows.map((row) => row.alert.id),
      rows.map((row) => row.alert.phase),
      rows.map((row) => row.urgency),
      rows.map((row) => JSON.stringify(row.alert)),
      rows.map((row) => (row.quiet ? 'quiet' : 'queued')),
      rows.map((row) => heldUntil.get(row.deviceId) ?? 0),
      claimer,
    ],
  );
  // Earlier states of the same alert not yet told are replaced by the new one (as the push Topic would).
  await sql.query(
    `UPDATE deliveries q SET status = 'superseded'
       FROM unnest($1::text[], $2::text[], $3::bigint[]) AS n(device_id, alert_id, cursor)
      WHERE q.device_id = n.device_id AND q.alert_id = n.alert_id AND q.status = 'queued' AND q.cursor < n.cursor`,
    [rows.map((row) => row.deviceId), rows.map((row) => row.alert.id), rows.map((row) => Number(row.alert.cursor))],
  );
  const past = pastKeptLog(last);
  if (past.length > 0)
    // What leaves the log is remembered per principal: a catch-up from before it is told it missed those.
    await sql.query(
      `WITH gone AS (
         DELETE FROM deliveries q USING unnest($1::text[], $2::bigint[]) AS n(device_id, upto)
          WHERE q.device_id = n.device_id AND q.cursor <= n.upto AND q.status <> 'queued'
          RETURNING q.device_id, q.alert::json AS alert, q.cursor)
       INSERT INTO pruned (device_id, network, principal, upto)
         SELECT device_id, alert->>'network', alert->>'principal', max(cursor) FROM gone GROUP BY 1, 2, 3
       ON CONFLICT (device_id, network, principal) DO UPDATE SET upto = greatest(pruned.upto, excluded.upto)`,
      [past.map(([deviceId]) => deviceId), past.map(([, upto]) => upto)],
    );
  return { stored, heldUntil };
}

/**
 * Devices whose log now runs past the kept length, with the newest cursor that leaves it. Only they have anything to
 * prune: a device with fewer than 500 alerts (most of them, most of the time) costs no statement, no index probe.
 */
export function pastKeptLog(newest: ReadonlyMap<string, number>): [deviceId: string, upto: number][] {
  return [...newest].flatMap(([deviceId, cursor]): [string, number][] =>
    cursor > KEPT_PER_DEVICE ? [[deviceId, cursor - KEPT_PER_DEVICE]] : [],
  );
}

export interface MissedPrincipal {
  readonly network: string;
  readonly principal: string;
}

/**
 * A page of the device's log after `after`, and the principals whose states after `after` already left the kept log
 * (the device must read those over REST: the log cannot tell it what they were).
 */
export async function alertsAfter(
  sql: Sql,
  deviceId: string,
  after: number,
): Promise<{ alerts: RelayAlert[]; more: boolean; missed: MissedPrincipal[] }> {
  const rows = await sql.query<{ alert: string }>(
    `SELECT alert FROM deliveries WHERE device_id = $1 AND cursor > $2 ORDER BY cursor LIMIT $3`,
    [deviceId, after, PAGE_SIZE + 1],
  );
  const missed = await sql.query<MissedPrincipal>(
    `SELECT network, principal FROM pruned WHERE device_id = $1 AND upto > $2 ORDER BY network, principal`,
    [deviceId, after],
  );
  const alerts = rows.slice(0, PAGE_SIZE).map((row) => JSON.parse(row.alert) as RelayAlert);
  return { alerts, more: rows.length > PAGE_SIZE, missed };
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
  /** Not to be sent before (epoch ms): a retry's backoff or the push service's Retry-After. */
  readonly notBefore: number;
  /** When an operator re-drove it from the dead-letter list: its retries count from then, not from `alert.at`. */
  readonly since?: number;
}

/** A queued state's identity, as a key: its device and its place in the device's log. */
export const sendKey = (send: Pick<QueuedSend, 'deviceId' | 'cursor'>): string => `${send.deviceId}\n${send.cursor}`;

/** A queued state's row, as read to be sent. */
export interface QueuedRow {
  device_id: string;
  cursor: number;
  tries: number;
  urgency: Urgency;
  alert: string;
  next_try_at: number;
  redriven_at: number | null;
}

export const queuedSendOf = (row: QueuedRow): QueuedSend => ({
  deviceId: row.device_id,
  cursor: Number(row.cursor),
  tries: Number(row.tries),
  urgency: row.urgency,
  alert: JSON.parse(row.alert) as RelayAlert,
  notBefore: Number(row.next_try_at),
  ...(row.redriven_at === null ? {} : { since: Number(row.redriven_at) }),
});

/** Every state still waiting to be sent, oldest first: what a starting sender takes up. */
export async function queuedSends(sql: Sql): Promise<QueuedSend[]> {
  const rows = await sql.query<QueuedRow>(
    `SELECT device_id, cursor, tries, urgency, alert, next_try_at, redriven_at FROM deliveries
      WHERE status = 'queued' ORDER BY next_try_at, cursor`,
  );
  return rows.map(queuedSendOf);
}

/** The push service accepted these (one statement for any number). */
export async function markTold(
  sql: Sql,
  sends: readonly Pick<QueuedSend, 'deviceId' | 'cursor'>[],
  at: number,
): Promise<void> {
  if (sends.length === 0) return;
  await sql.query(
    `UPDATE deliveries q SET status = 'told', told_at = $3
       FROM unnest($1::text[], $2::bigint[]) AS n(device_id, cursor)
      WHERE q.device_id = n.device_id AND q.cursor = n.cursor`,
    [sends.map((send) => send.deviceId), sends.map((send) => send.cursor), at],
  );
}

/** Tries again at `at`. A state superseded while it was in flight stays superseded. */
export async function retryAt(sql: Sql, send: QueuedSend, at: number, answer: string): Promise<void> {
  await sql.query(
    `UPDATE deliveries SET tries = tries + 1, next_try_at = $3, answer = $4
      WHERE device_id = $1 AND cursor = $2 AND status = 'queued'`,
    [send.deviceId, send.cursor, at, answer],
  );
}

/**
 * Gives the state up: `failed`, with the last answer, on the dead-letter list an operator can see and re-drive; it
 * stays in the device's log for the app to fetch. A state superseded while it was in flight stays superseded.
 */
export async function giveUp(sql: Sql, send: QueuedSend, at: number, answer: string): Promise<number> {
  const rows = await sql.query(
    `UPDATE deliveries SET tries = tries + 1, status = 'failed', failed_at = $3, answer = $4
      WHERE device_id = $1 AND cursor = $2 AND status = 'queued' RETURNING cursor`,
    [send.deviceId, send.cursor, at, answer],
  );
  return rows.length;
}

/**
 * The push service asked to slow down: nothing more goes to this device before `at`, whichever instance sends it
 * (its queued states wait, and so do states stored later: appendAlerts reads the hold). Two statements, the device's
 * row first: its lock waits for a batch that bumped the device's cursor before the hold, so the second statement
 * (a snapshot of its own) sees that batch's states; a batch after the hold reads it.
 */
export async function holdDevice(
  db: Sql & { transaction?: Database['transaction'] },
  deviceId: string,
  at: number,
): Promise<void> {
  const hold = async (sql: Sql) => {
    await sql.query('UPDATE devices SET held_until = greatest(held_until, $2) WHERE id = $1', [deviceId, at]);
    await sql.query(
      `UPDATE deliveries SET next_try_at = greatest(next_try_at, $2) WHERE device_id = $1 AND status = 'queued'`,
      [deviceId, at],
    );
  };
  await (db.transaction ? db.transaction(hold) : hold(db));
}
