import type { Log } from '../log.ts';
import type { WriteFence } from '../storage/alert-writes.ts';
import { partitionOf, partOf } from './partitions.ts';

/**
 * The fence around an instance's writes of alert states and ledgers on a shared database: it writes only for devices
 * whose partition is leased to it, read in the write's own transaction (states) or statement (ledgers; fenced-off rows
 * are then left out without a warning). An instance that stalled past its leases (a paused process, a slow disk) and
 * wakes with a batch judged before the stall writes nothing for the devices another instance took meanwhile, which
 * judges them from what is stored (this one stops judging for them at its next lease round). A lease that ran out but
 * was taken by nobody is still this instance's to write under.
 *
 * The lease rows are read, not locked: a lock held by a writer that freezes would hold up every instance's lease round
 * (they take partitions one instance at a time). So a takeover committed while a write is under way, after its read,
 * lets that write in: its states are the new owner's to send, and pushed twice at most if the new owner judged them
 * before the write committed (the at-least-once window, docs/relay-at-scale.md).
 */
export function leaseFence(instance: string, log: Log): WriteFence {
  const allowed: WriteFence['allowed'] = async (sql, deviceIds) => {
    // Each id hashed once (an MD5 each: a block's writes name thousands of devices).
    const partOfDevice = deviceIds.map(partitionOf);
    const rows = await sql.query<{ part: number }>(
      'SELECT part FROM partition_leases WHERE owner = $1 AND part = ANY($2::int[])',
      [instance, [...new Set(partOfDevice)]],
    );
    const held = new Set(rows.map((row) => Number(row.part)));
    const mine = new Set(deviceIds.filter((_, index) => held.has(partOfDevice[index]!)));
    if (mine.size < deviceIds.length)
      log.warn('writes fenced: devices taken over by another instance', { devices: deviceIds.length - mine.size });
    return mine;
  };
  return {
    allowed,
    owner: instance,
    // The same lease read, inside the statement that writes (a ledger's upsert: one statement, no transaction).
    holds: (deviceId, owner) => `${partOf(deviceId)} IN (SELECT part FROM partition_leases WHERE owner = ${owner})`,
  };
}
