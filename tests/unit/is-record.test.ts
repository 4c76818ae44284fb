import { describe, expect, it } from 'vitest';
import { isRecord } from '../../src/domain/is-record.ts';

describe('what counts as a record read from outside', () => {
  it.each([{}, { version: 1 }, Object.create(null)])('an object is one: %j', (value) => {
    expect(isRecord(value)).toBe(true);
  });

  it.each([null, undefined, [], [{ version: 1 }], 'text', 1, true, 10n])('anything else is not: %s', (value) => {
    expect(isRecord(value)).toBe(false);
  });
});
