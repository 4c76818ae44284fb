/**
 * Whether a value read from outside (storage, the wire, a file) is an object whose fields can be looked up by name:
 * not null, not an array. The first check of every reader of an unknown shape.
 */
export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
