import type { Database, Sql } from '../storage/sql.ts';
import { NOW_MS, PARTITIONS, partOf } from './partitions.ts';

/** The lease changes of all instances are made one at a time (migrations take 74117011). */
export const LEASE_LOCK = 74117012;
/** Says it is alive, and nothing more: its followers are not at the tip (it takes no share). */
export const HEARTBEAT = `UPDATE instances SET seen_at = ${NOW_MS} WHERE name = $1`;
/**
 * Says it is alive and renews the leases it holds, and nothing more: between two rounds, while one waits on its hooks
 * (a hand-over waiting for pushes in flight), so that it is not taken for dead meanwhile.
 */
export const KEEP_ALIVE = `WITH seen AS (${HEARTBEAT} RETURNING 1)
  UPDATE partition_leases SET expires_at = ${NOW_MS} + $2 WHERE owner = $1`;
/** Its queued states of the partitions left for their (new) owner to claim. */
export const UNCLAIM = `UPDATE deliveries SET claimed_by = NULL
    WHERE claimed_by = $1 AND status = 'queued' AND ${partOf('device_id')} = ANY($2::int[])`;
/** Its queued states of the partitions left for their owner to claim, and its leases of them let go. */
export const LET_GO = `WITH unclaimed AS (${UNCLAIM} RETURNING 1)
  DELETE FROM partition_leases WHERE owner = $1 AND part = ANY($2::int[])`;

export interface LeaseRound {
  /** Its partitions after the round: renewed and taken. */
  readonly held: number[];
  /** Of those, the ones past its share, to let go once it stopped judging for their devices. */
  readonly over: number[];
  /** Taken in this round (free, or expired). */
  readonly taken: number[];
  /** Instances taking a share (alive, their followers at the tip), this one included. */
  readonly live: number;
}

/**
 * One instance at a time (LEASE_LOCK, in the caller's transaction): its heartbeat, its leases renewed for `leaseMs`,
 * its share taken or what is past it chosen to let go.
 */
export async function leaseRound(sql: Sql, instance: string, first: boolean, leaseMs: number): Promise<LeaseRound> {
  await sql.query('SELECT pg_advisory_xact_lock($1)', [LEASE_LOCK]);
  await sql.query(
    `INSERT INTO instances (name, seen_at, started_at, ready_at) VALUES ($1, ${NOW_MS}, ${NOW_MS}, ${NOW_MS})
     ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at, ready_at = excluded.ready_at,
       started_at = CASE WHEN $2 THEN excluded.started_at ELSE instances.started_at END`,
    [instance, first],
  );
  const renewed = await sql.query<{ part: number }>(
    `UPDATE partition_leases SET expires_at = ${NOW_MS} + $2 WHERE owner = $1 RETURNING part`,
    [instance, leaseMs],
  );
  const [alive] = await sql.query<{ count: number | string }>(
    `SELECT count(*) AS count FROM instances WHERE seen_at > ${NOW_MS} - $1 AND ready_at > ${NOW_MS} - $1`,
    [leaseMs],
  );
  const live = Math.max(1, Number(alive?.count ?? 1));
  const share = Math.ceil(PARTITIONS / live);
  const held = renewed.map((row) => Number(row.part)).sort((a, b) => a - b);
  if (held.length >= share) return { held, over: held.slice(share), taken: [], live };
  const taken = await sql.query<{ part: number }>(
    `INSERT INTO partition_leases (part, owner, expires_at)
       SELECT g, $1, ${NOW_MS} + $2 FROM generate_series(0, ${PARTITIONS - 1}) AS g
        WHERE NOT EXISTS (SELECT 1 FROM partition_leases l WHERE l.part = g AND l.expires_at >= ${NOW_MS})
        ORDER BY g LIMIT $3
     ON CONFLICT (part) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
       WHERE partition_leases.expires_at < ${NOW_MS}
     RETURNING part`,
    [instance, leaseMs, share - held.length],
  );
  const fresh = taken.map((row) => Number(row.part));
  return { held: [...held, ...fresh], over: [], taken: fresh, live };
}

/** Its leases, its claims and its heartbeat gone at once (a graceful stop), in the caller's transaction. */
export async function letGoOfAll(sql: Sql, instance: string): Promise<void> {
  await sql.query('SELECT pg_advisory_xact_lock($1)', [LEASE_LOCK]);
  await sql.query('DELETE FROM partition_leases WHERE owner = $1', [instance]);
  await sql.query(`UPDATE deliveries SET claimed_by = NULL WHERE claimed_by = $1 AND status = 'queued'`, [instance]);
  await sql.query('DELETE FROM instances WHERE name = $1', [instance]);
}

/** Whether another instance is alive and at the tip (it renewed as ready within `leaseMs`). */
export async function othersReady(db: Database, instance: string, leaseMs: number): Promise<boolean> {
  const [other] = await db.query<{ name: string }>(
    `SELECT name FROM instances WHERE name <> $1 AND seen_at > ${NOW_MS} - $2 AND ready_at > ${NOW_MS} - $2 LIMIT 1`,
    [instance, leaseMs],
  );
  return other !== undefined;
}
