import type { QueuedSend, RelayAlert, Urgency } from './deliveries.ts';
import type { Sql } from './sql.ts';

/** A state the sender gave up on, as an operator sees it (no alert words: they name the watched address). */
export interface DeadLetter {
  readonly deviceId: string;
  readonly cursor: number;
  readonly phase: string;
  readonly tries: number;
  /** The last answer: a status, "unreachable", "unusable keys", "endpoint refused: …". */
  readonly answer: string | null;
  readonly failedAt: number | null;
}

export async function deadLetters(sql: Sql, limit = 500): Promise<{ total: number; letters: DeadLetter[] }> {
  // One statement, so the count and the rows are read from the same snapshot: read apart, a state given up between
  // the two made the list say "1" beside no letter at all.
  const rows = await sql.query<{
    device_id: string | null;
    cursor: number | null;
    phase: string | null;
    tries: number | null;
    answer: string | null;
    failed_at: number | null;
    total: number | string;
  }>(
    `SELECT l.device_id, l.cursor, l.phase, l.tries, l.answer, l.failed_at, c.total
       FROM (SELECT count(*) AS total FROM deliveries WHERE status = 'failed') c
       LEFT JOIN LATERAL (SELECT device_id, cursor, phase, tries, answer, failed_at FROM deliveries
                           WHERE status = 'failed' ORDER BY failed_at, device_id, cursor LIMIT $1) l ON true`,
    [limit],
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    letters: rows.flatMap((row) =>
      row.device_id === null || row.phase === null
        ? []
        : [
            {
              deviceId: row.device_id,
              cursor: Number(row.cursor),
              phase: row.phase,
              tries: Number(row.tries),
              answer: row.answer,
              failedAt: row.failed_at === null ? null : Number(row.failed_at),
            },
          ],
    ),
  };
}

/**
 * Puts given-up states back in the queue (of one device, or all), to be tried afresh from `now`. Only the newest
 * state of each alert goes back: one a later state replaced is marked superseded instead, never resent.
 */
export async function redrive(
  sql: Sql,
  deviceId: string | null,
  now: number,
  /** The instance that re-drives them sends them (null on the embedded database). */
  claimer: string | null = null,
): Promise<{ requeued: QueuedSend[]; superseded: number }> {
  const stale = await sql.query(
    `UPDATE deliveries q SET status = 'superseded' WHERE q.status = 'failed' AND ($1::text IS NULL OR q.device_id = $1)
        AND EXISTS (SELECT 1 FROM deliveries n WHERE n.device_id = q.device_id AND n.alert_id = q.alert_id
                     AND n.cursor > q.cursor)
      RETURNING q.cursor`,
    [deviceId],
  );
  const rows = await sql.query<{ device_id: string; cursor: number; urgency: Urgency; alert: string }>(
    `UPDATE deliveries SET status = 'queued', tries = 0, next_try_at = $2, failed_at = NULL, redriven_at = $2,
       claimed_by = $3
      WHERE status = 'failed' AND ($1::text IS NULL OR device_id = $1)
      RETURNING device_id, cursor, urgency, alert`,
    [deviceId, now, claimer],
  );
  const requeued = rows
    .map((row): QueuedSend => {
      return {
        deviceId: row.device_id,
        cursor: Number(row.cursor),
        tries: 0,
        urgency: row.urgency,
        alert: JSON.parse(row.alert) as RelayAlert,
        notBefore: now,
        since: now,
      };
    })
    .sort((a, b) => a.cursor - b.cursor);
  return { requeued, superseded: stale.length };
}
