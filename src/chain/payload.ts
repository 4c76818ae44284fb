import { isRecord } from '../domain/is-record.ts';

/** Small runtime checks for what a node sends: each returns the value or throws a PayloadError naming the path. */
export class PayloadError extends Error {
  constructor(
    readonly path: string,
    expected: string,
    actual: unknown,
  ) {
    super(`${path}: expected ${expected}, got ${describe(actual)}`);
  }
}

const describe = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'a list'
      : typeof value === 'string'
        ? `"${value.slice(0, 40)}"`
        : typeof value;

export function object(value: unknown, path: string): { at: (key: string) => { value: unknown; path: string } } {
  if (!isRecord(value)) throw new PayloadError(path, 'an object', value);
  return { at: (key) => ({ value: value[key], path: `${path}.${key}` }) };
}

/** Longer than anything a node legitimately sends in a field the app reads (asset ids are under 300). */
export const MAX_TEXT_LENGTH = 1000;

export function text({ value, path }: { value: unknown; path: string }): string {
  if (typeof value !== 'string') throw new PayloadError(path, 'text', value);
  if (value.length > MAX_TEXT_LENGTH)
    throw new PayloadError(path, `text of at most ${MAX_TEXT_LENGTH} characters`, `${value.length} characters`);
  return value;
}

/** A count, height, index or time: a whole number, never negative. */
export function integer({ value, path }: { value: unknown; path: string }): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new PayloadError(path, 'a whole number of at least 0', value);
  return value;
}

/** A signed amount (a net change): an integer string in base units, read as bigint (never a float). */
export function amount({ value, path }: { value: unknown; path: string }): bigint {
  if (typeof value !== 'string' || !/^-?\d{1,78}$/.test(value))
    throw new PayloadError(path, 'an integer string', value);
  return BigInt(value);
}

/** A balance, fee or moved amount: an integer string of at least 0 (Clarity amounts fit in 128 bits). */
export function quantity({ value, path }: { value: unknown; path: string }): bigint {
  // Named apart: a node on a broken chain (the API's fuzzed test chain) can say a balance below zero.
  if (typeof value === 'string' && /^-\d{1,39}$/.test(value) && BigInt(value) < 0n)
    throw new PayloadError(path, 'an amount of at least 0', value);
  if (typeof value !== 'string' || !/^\d{1,39}$/.test(value) || BigInt(value) >= 2n ** 128n)
    throw new PayloadError(path, 'an integer string from 0 to 2^128 − 1', value);
  return BigInt(value);
}

const PRINCIPAL = /^S[0-9A-Z]{27,40}(\.[a-zA-Z][a-zA-Z0-9_-]{0,127})?$/;
/** A principal as a node spells it (canonical, upper case), a contract's with its name. */
export function principal(field: { value: unknown; path: string }): string {
  const value = text(field);
  if (!PRINCIPAL.test(value)) throw new PayloadError(field.path, 'a Stacks principal', value);
  return value;
}

const TX_ID = /^0x[0-9a-f]{64}$/;
/** A transaction id: 0x and 32 bytes in hex. */
export function txId(field: { value: unknown; path: string }): string {
  const value = text(field);
  if (!TX_ID.test(value)) throw new PayloadError(field.path, 'a transaction id (0x and 64 hex digits)', value);
  return value;
}

export function list({ value, path }: { value: unknown; path: string }): { value: unknown; path: string }[] {
  if (!Array.isArray(value)) throw new PayloadError(path, 'a list', value);
  return value.map((item, index) => ({ value: item, path: `${path}[${index}]` }));
}

export const optional = <T>(
  field: { value: unknown; path: string },
  read: (field: { value: unknown; path: string }) => T,
): T | null => (field.value === null || field.value === undefined ? null : read(field));
