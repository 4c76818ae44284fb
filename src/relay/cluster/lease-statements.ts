import { NOW_MS, partOf } from './partitions.ts';

/** The lease changes of all instances are made one at a time (migrations take 74117011). */
export const LEASE_LOCK = 74117012;
/** Says it is alive, and nothing more: its followers are not at the tip (it takes no share). */
export const HEARTBEAT = `UPDATE instances SET seen_at = ${NOW_MS} WHERE name = $1`;
/** Its queued states of the partitions left for their (new) owner to claim. */
export const UNCLAIM = `UPDATE deliveries SET claimed_by = NULL
    WHERE claimed_by = $1 AND status = 'queued' AND ${partOf('device_id')} = ANY($2::int[])`;
/** Its queued states of the partitions left for their owner to claim, and its leases of them let go. */
export const LET_GO = `WITH unclaimed AS (${UNCLAIM} RETURNING 1)
  DELETE FROM partition_leases WHERE owner = $1 AND part = ANY($2::int[])`;
