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

/**
 * appendAlerts, the states claimed by the instance that stores them; with each device's 429 hold, if any. One
 * statement (data-modifying CTEs), not one for each step: on a loaded machine every round trip waits for both the
 * database and the event loop to be scheduled, and a block's states wait for all of them. In it, in this order of
 * effect: each device's cursor bumped by its count (its row locked, devices in id order: two instances' batches
 * lock the rows they share in the same order, and never deadlock), its states numbered in the order given and
 * inserted (an earlier state of an alert in the same batch inserted superseded), earlier states of the same alerts
 * not yet told superseded (as the push Topic would replace them), each alert's newest state written as its state
 * when `entry` is given, and what leaves the kept log pruned and remembered per principal (a catch-up from before it
 * is told it missed those). Each statement of it sees the rows as they were before it: the supersede and the prune
 * touch only older rows, in disjoint statuses.
 */
export async function appendClaimed(
  sql: Sql,
  alerts: readonly (NewAlert & { readonly entry?: string })[],
  /** The instance that stores them claims them: it sends them (null on the embedded database: nobody else could). */
  claimer: string | null = null,
): Promise<{ stored: (RelayAlert | null)[]; heldUntil: Map<string, number> }> {
  if (alerts.length === 0) return { stored: [], heldUntil: new Map() };
  const rows = await sql.query<{ ord: number; cursor: number; held_until: number }>(
    `WITH n AS (
       SELECT * FROM ROWS FROM (json_to_recordset($1::json)
         AS (d text, a text, p text, u text, alert text, q boolean, e text)) WITH ORDINALITY
         AS n(device_id, alert_id, phase, urgency, alert, quiet, entry, ord)
     ), locked AS (
       SELECT d.id, c.count FROM devices d
         JOIN (SELECT device_id, count(*) AS count FROM n GROUP BY device_id) c ON c.device_id = d.id
        ORDER BY d.id FOR UPDATE OF d
     ), bumped AS (
       UPDATE devices d SET last_cursor = d.last_cursor + l.count FROM locked l WHERE d.id = l.id
       RETURNING d.id, d.last_cursor, d.held_until, l.count
     ), numbered AS (
       SELECT n.*, b.held_until, b.last_cursor - b.count + row_number() OVER (PARTITION BY n.device_id ORDER BY n.ord)
                AS cursor
         FROM n JOIN bumped b ON b.id = n.device_id
     ), inserted AS (
       INSERT INTO deliveries (device_id, cursor, alert_id, phase, urgency, alert, status, next_try_at, claimed_by)
       SELECT device_id, cursor, alert_id, phase, urgency, '{"cursor":"' || cursor::text || '",' || substr(alert, 2),
              CASE WHEN quiet THEN 'quiet'
                   WHEN cursor < max(cursor) OVER (PARTITION BY device_id, alert_id) THEN 'superseded'
                   ELSE 'queued' END,
              held_until, $2::text
         FROM numbered
     ), superseded AS (
       UPDATE deliveries q SET status = 'superseded' FROM numbered m
        WHERE q.device_id = m.device_id AND q.alert_id = m.alert_id AND q.status = 'queued' AND q.cursor < m.cursor
     ), states AS (
       INSERT INTO alert_states (device_id, alert_id, entry, cursor)
       SELECT DISTINCT ON (device_id, alert_id) device_id, alert_id, entry, cursor FROM numbered
        WHERE entry IS NOT NULL ORDER BY device_id, alert_id, cursor DESC
       ON CONFLICT (device_id, alert_id) DO UPDATE SET entry = excluded.entry, cursor = excluded.cursor
     ), gone AS (
       DELETE FROM deliveries q USING bumped b
        WHERE b.last_cursor > $3 AND q.device_id = b.id AND q.cursor <= b.last_cursor - $3 AND q.status <> 'queued'
       RETURNING q.device_id, q.alert::json AS alert, q.cursor
     ), pruned_now AS (
       INSERT INTO pruned (device_id, network, principal, upto)
       SELECT device_id, alert->>'network', alert->>'principal', max(cursor) FROM gone GROUP BY 1, 2, 3
       ON CONFLICT (device_id, network, principal) DO UPDATE SET upto = greatest(pruned.upto, excluded.upto)
     )
     SELECT ord, cursor, held_until FROM numbered`,
    [
      // One JSON document, not seven text arrays: pg escapes each array element in JavaScript, character by character
      // (a block's states are ~250 kB of JSON text), while JSON.stringify and PostgreSQL's parser are native.
      JSON.stringify(
        alerts.map((row) => ({
          d: row.deviceId,
          a: row.alert.id,
          p: row.alert.phase,
          u: row.urgency,
          alert: JSON.stringify(row.alert),
          q: row.quiet === true,
          e: row.entry ?? null,
        })),
      ),
      claimer,
      KEPT_PER_DEVICE,
    ],
  );
  const stored: (RelayAlert | null)[] = alerts.map(() => null);
  // A device its push service asked to slow down (on any instance): its new states wait until then too.
  const heldUntil = new Map<string, number>();
  for (const row of rows) {
    const index = Number(row.ord) - 1;
    const given = alerts[index]!;
    stored[index] = { cursor: String(row.cursor), ...given.alert };
    if (Number(row.held_until) > 0) heldUntil.set(given.deviceId, Number(row.held_until));
  }
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
