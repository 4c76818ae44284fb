import { isRecord } from '../is-record.ts';
import { err, ok, type Result } from '../result.ts';

/**
 * A small schema builder for the relay's wire contract: each schema both reads a JSON value (naming the field that is
 * wrong, `watches/3/principal`, and what was expected) and describes itself as JSON Schema for the OpenAPI document.
 * Pure and eval-free, so the page, the service worker and the relay all run the same checks under a strict CSP.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** Where a value went wrong (a JSON Pointer without its leading slash; "" for the body itself) and why. */
export interface WireIssue {
  readonly field: string;
  readonly message: string;
}

export interface WireSchema<T> {
  readonly json: JsonSchema;
  read(value: unknown, field: string): Result<T, WireIssue>;
}

export type WireType<S> = S extends WireSchema<infer T> ? T : never;

export const issue = (field: string, message: string) => err<WireIssue>({ field, message });
export const describeIssue = ({ field, message }: WireIssue): string => (field ? `${field}: ${message}` : message);
export const fieldOf = (field: string, key: string | number): string =>
  field ? `${field}/${String(key)}` : String(key);

export function text(options: {
  readonly expected: string;
  readonly minLength?: number;
  readonly maxLength: number;
  readonly pattern?: RegExp;
}): WireSchema<string> {
  const { expected, minLength = 0, maxLength, pattern } = options;
  return {
    json: {
      type: 'string',
      minLength,
      maxLength,
      ...(pattern ? { pattern: pattern.source } : {}),
      description: expected,
    },
    read: (value, field) =>
      typeof value === 'string' &&
      value.length >= minLength &&
      value.length <= maxLength &&
      (!pattern || pattern.test(value))
        ? ok(value)
        : issue(field, `expected ${expected}`),
  };
}

export const flag = (expected: string): WireSchema<boolean> => ({
  json: { type: 'boolean', description: expected },
  read: (value, field) => (typeof value === 'boolean' ? ok(value) : issue(field, 'expected true or false')),
});

export const oneOf = <T extends string>(values: readonly T[]): WireSchema<T> => ({
  json: { type: 'string', enum: values },
  read: (value, field) =>
    (values as readonly unknown[]).includes(value)
      ? ok(value as T)
      : issue(field, `expected one of ${values.map((item) => `"${item}"`).join(', ')}`),
});

export const numberOrNull = (expected: string): WireSchema<number | null> => ({
  json: { type: ['number', 'null'], description: expected },
  read: (value, field) =>
    value === null || (typeof value === 'number' && Number.isFinite(value))
      ? ok(value)
      : issue(field, `expected ${expected}, or null`),
});

export function list<T>(item: WireSchema<T>, maxItems: number, expected: string): WireSchema<T[]> {
  return {
    json: { type: 'array', maxItems, items: item.json, description: expected },
    read: (value, field) => {
      if (!Array.isArray(value)) return issue(field, `expected ${expected}`);
      if (value.length > maxItems)
        return issue(
          field,
          `has ${value.length.toLocaleString('en-US')} entries; at most ${maxItems.toLocaleString('en-US')} are allowed`,
        );
      const items: T[] = [];
      for (const [index, entry] of value.entries()) {
        const read = item.read(entry, fieldOf(field, index));
        if (!read.ok) return read;
        items.push(read.value);
      }
      return ok(items);
    },
  };
}

/** An object of arbitrary keys (at most `maxKeys`, each at most `keyMaxLength` characters) to values of one schema. */
export function dictionary<T>(value: WireSchema<T>, maxKeys: number, expected: string): WireSchema<Record<string, T>> {
  return {
    json: { type: 'object', maxProperties: maxKeys, additionalProperties: value.json, description: expected },
    read: (raw, field) => {
      if (!isRecord(raw)) return issue(field, `expected ${expected}`);
      const entries = Object.entries(raw);
      if (entries.length > maxKeys)
        return issue(field, `has ${entries.length} entries; at most ${maxKeys} are allowed`);
      const out: Record<string, T> = {};
      for (const [key, item] of entries) {
        const read = value.read(item, fieldOf(field, key));
        if (!read.ok) return read;
        out[key] = read.value;
      }
      return ok(out);
    },
  };
}

type Shape = Readonly<Record<string, WireSchema<unknown>>>;
type Required<S extends Shape> = { [K in keyof S]: WireType<S[K]> };
type Optional<S extends Shape> = { [K in keyof S]?: WireType<S[K]> };

/**
 * An object with required and optional properties. `closed`: any other key is refused (naming it and the keys
 * expected); otherwise other keys are left out of what is read, so a newer sender's extra field does no harm.
 */
export function object<R extends Shape, O extends Shape = Record<never, never>>(
  required: R,
  optional: O,
  options: { readonly expected: string; readonly closed?: boolean },
): WireSchema<Required<R> & Optional<O>> {
  const known = [...Object.keys(required), ...Object.keys(optional)];
  const properties = Object.fromEntries(
    [...Object.entries(required), ...Object.entries(optional)].map(([key, schema]) => [key, schema.json]),
  );
  return {
    json: {
      type: 'object',
      required: Object.keys(required),
      properties,
      additionalProperties: !options.closed,
      description: options.expected,
    },
    read: (value, field) => {
      if (!isRecord(value)) return issue(field, `expected ${options.expected}`);
      const out: Record<string, unknown> = {};
      for (const [key, schema] of Object.entries(required)) {
        if (!(key in value))
          return issue(fieldOf(field, key), `is missing; expected ${String(schema.json['description'] ?? 'a value')}`);
        const read = schema.read(value[key], fieldOf(field, key));
        if (!read.ok) return read;
        out[key] = read.value;
      }
      for (const [key, schema] of Object.entries(optional)) {
        if (value[key] === undefined) continue;
        const read = schema.read(value[key], fieldOf(field, key));
        if (!read.ok) return read;
        out[key] = read.value;
      }
      if (options.closed) {
        const stranger = Object.keys(value).find((key) => !known.includes(key));
        if (stranger !== undefined)
          return issue(fieldOf(field, stranger), `is not expected here; expected only ${known.join(', ')}`);
      }
      return ok(out as Required<R> & Optional<O>);
    },
  };
}

/** A schema whose value is checked further (a rule JSON Schema cannot say, such as an address of the watch's network). */
export const refine = <T, U>(
  schema: WireSchema<T>,
  check: (value: T, field: string) => Result<U, WireIssue>,
  note?: string,
): WireSchema<U> => ({
  json: note
    ? { ...schema.json, description: `${String(schema.json['description'] ?? '')} ${note}`.trim() }
    : schema.json,
  read: (value, field) => {
    const read = schema.read(value, field);
    return read.ok ? check(read.value, field) : read;
  },
});
