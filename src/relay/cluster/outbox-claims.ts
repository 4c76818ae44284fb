import { queuedSendOf, sendKey, type QueuedRow, type QueuedSend } from '../storage/deliveries.ts';
import type { Database } from '../storage/sql.ts';
import { NOW_MS, partOf } from './partitions.ts';

/** Queued states claimed a statement, at most. */
const SWEEP_LIMIT = 5_000;

/** The queued states claimed in the instance's name, by `sendKey`. */
export async function claimsOf(db: Database, instance: string): Promise<Set<string>> {
  const rows = await db.query<{ device_id: string; cursor: number | string }>(
    `SELECT device_id, cursor FROM deliveries WHERE status = 'queued' AND claimed_by = $1`,
    [instance],
  );
  return new Set(rows.map((row) => sendKey({ deviceId: row.device_id, cursor: Number(row.cursor) })));
}

/** What the instance's previous run claimed and never sent (it was killed): sent now. */
export async function ownClaims(db: Database, instance: string): Promise<QueuedSend[]> {
  const rows = await db.query<QueuedRow>(
    `SELECT device_id, cursor, tries, urgency, alert, next_try_at, redriven_at FROM deliveries
      WHERE status = 'queued' AND claimed_by = $1 ORDER BY next_try_at, cursor`,
    [instance],
  );
  return rows.map(queuedSendOf);
}

/**
 * Queued states of the instance's partitions `parts` that nobody alive claims (their instance died, or let them go
 * with the partition), claimed in its name. Never its own, even when its heartbeat lapsed (the database was away): its
 * sender holds those already. An instance is alive while its heartbeat is younger than `leaseMs`.
 */
export async function sweepClaims(
  db: Database,
  instance: string,
  parts: readonly number[],
  leaseMs: number,
): Promise<QueuedSend[]> {
  // In a transaction: an UPDATE whose answer was lost may still have claimed them, and claimed in its name they would
  // be sent by nobody; a transaction's COMMIT in doubt is looked up (storage/postgres.ts) rather than left unknown.
  const rows = await db.transaction((sql) =>
    sql.query<QueuedRow>(
      `UPDATE deliveries q SET claimed_by = $1
       FROM (SELECT d.device_id, d.cursor FROM deliveries d
              WHERE d.status = 'queued' AND ${partOf('d.device_id')} = ANY($2::int[])
                AND d.claimed_by IS DISTINCT FROM $1
                AND (d.claimed_by IS NULL OR NOT EXISTS (SELECT 1 FROM instances i
                       WHERE i.name = d.claimed_by AND i.seen_at > ${NOW_MS} - $3))
              ORDER BY d.next_try_at, d.cursor LIMIT ${SWEEP_LIMIT}
              FOR UPDATE OF d SKIP LOCKED) c
      WHERE q.device_id = c.device_id AND q.cursor = c.cursor
     RETURNING q.device_id, q.cursor, q.tries, q.urgency, q.alert, q.next_try_at, q.redriven_at`,
      [instance, [...parts], leaseMs],
    ),
  );
  return rows.map(queuedSendOf).sort((a, b) => a.notBefore - b.notBefore || a.cursor - b.cursor);
}
