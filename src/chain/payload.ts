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

export type Reader = (key: string) => unknown;

export function object(value: unknown, path: string): { at: (key: string) => { value: unknown; path: string } } {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new PayloadError(path, 'an object', value);
  const record = value as Record<string, unknown>;
  return { at: (key) => ({ value: record[key], path: `${path}.${key}` }) };
}

export function text({ value, path }: { value: unknown; path: string }): string {
  if (typeof value !== 'string') throw new PayloadError(path, 'text', value);
  return value;
}

export function integer({ value, path }: { value: unknown; path: string }): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new PayloadError(path, 'a whole number', value);
  return value;
}

/** An amount: an integer string in base units, read as bigint (never a float). */
export function amount({ value, path }: { value: unknown; path: string }): bigint {
  if (typeof value !== 'string' || !/^-?\d+$/.test(value)) throw new PayloadError(path, 'an integer string', value);
  return BigInt(value);
}

export function list({ value, path }: { value: unknown; path: string }): { value: unknown; path: string }[] {
  if (!Array.isArray(value)) throw new PayloadError(path, 'a list', value);
  return value.map((item, index) => ({ value: item, path: `${path}[${index}]` }));
}

export const optional = <T>(
  field: { value: unknown; path: string },
  read: (field: { value: unknown; path: string }) => T,
): T | null => (field.value === null || field.value === undefined ? null : read(field));
