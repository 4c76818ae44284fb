/** The file a user downloads to keep stored records the app could not read: as stored, readable by a person. */
export const DAMAGED_FORMAT = 'stacks-watch/damaged-records';

export interface DamagedRecordCopy {
  /** What it is, in the UI's words (“the watch list”). */
  readonly record: string;
  /** Where it was: `database/key`. */
  readonly place: string;
  readonly reason: string;
  /** The stored value, untouched. */
  readonly value: unknown;
}

/**
 * JSON of records as IndexedDB held them. What JSON cannot say is spelled out rather than lost: a bigint as
 * `"123n"`, a Map or a Set as a list, undefined as null.
 */
export function serialiseDamagedRecords(records: readonly DamagedRecordCopy[], now: number): string {
  const file = { format: DAMAGED_FORMAT, savedAt: new Date(now).toISOString(), records };
  return `${JSON.stringify(file, replacer, 2)}\n`;
}

function replacer(_key: string, value: unknown): unknown {
  if (typeof value === 'bigint') return `${value}n`;
  if (value instanceof Map) return [...value.entries()];
  if (value instanceof Set) return [...value.values()];
  if (value === undefined) return null;
  return value;
}
