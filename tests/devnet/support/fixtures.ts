import { readFileSync } from 'node:fs';

const DIR = new URL('../../fixtures/real-api/', import.meta.url);

export const fixture = (name: string): unknown => JSON.parse(readFileSync(new URL(`${name}.json`, DIR), 'utf8'));

export const fixtureHeaders = (name: string) =>
  fixture(`${name}.headers`) as { status: number; headers: Record<string, string> };

/**
 * The structure of a JSON value: keys and value types, not values. Two answers with the same shape are
 * interchangeable for a client, whatever the chain's data.
 */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])];
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
    );
  }
  return typeof value;
}
