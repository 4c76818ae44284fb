import type { Log } from '../log.ts';
import type { WriteFence } from '../storage/alert-writes.ts';
import { partitionOf } from './partitions.ts';

/**
 * The fence around an instance's writes of alert states and ledgers on a shared database: it writes only for devices
 * whose partition is leased to it now, read in the write's own transaction with the lease rows locked FOR SHARE
 * (lowest partition first, as a takeover takes them). An instance that stalled past its leases (a paused process, a
 * slow disk) and wakes with a batch judged before the stall writes nothing for the devices another instance took
 * meanwhile: the other instance judges them from what is stored, and would otherwise push the same states again or
 * have its ledgers overwritten by older ones. A takeover that begins during the write waits for it to commit, and
 * then reads what it wrote. A lease that ran out but was taken by nobody is still this instance's to write under.
 */
export function leaseFence(instance: string, log: Log): WriteFence {
  return async (sql, deviceIds) => {
    const parts = [...new Set(deviceIds.map(partitionOf))].sort((a, b) => a - b);
    const rows = await sql.query<{ part: number }>(
      'SELECT part FROM partition_leases WHERE owner = $1 AND part = ANY($2::int[]) ORDER BY part FOR SHARE',
      [instance, parts],
    );
    const held = new Set(rows.map((row) => Number(row.part)));
    const allowed = new Set(deviceIds.filter((id) => held.has(partitionOf(id))));
    if (allowed.size < deviceIds.length)
      log.warn('writes fenced: devices taken over by another instance', { devices: deviceIds.length - allowed.size });
    return allowed;
  };
}
