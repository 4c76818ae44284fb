import { createHash } from 'node:crypto';

/**
 * Devices are shared among the instances on one database in this many partitions, each leased to one instance. More
 * partitions than instances ever run, so that the work divides evenly; a power of two dividing 256, so that the
 * partition is a byte of the device id's MD5 both here and in SQL.
 */
export const PARTITIONS = 32;

/** A device's partition: the first byte of MD5(id), modulo PARTITIONS (PART_OF computes the same in SQL). */
export function partitionOf(deviceId: string): number {
  return createHash('md5').update(deviceId).digest()[0]! % PARTITIONS;
}

/** `partitionOf` in SQL, for a column or parameter holding a device id. */
export const partOf = (column: string): string => `(get_byte(decode(md5(${column}), 'hex'), 0) % ${PARTITIONS})`;

/** The database's clock in epoch ms: leases and heartbeats are compared on one clock, whatever the instances' own. */
export const NOW_MS = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;
