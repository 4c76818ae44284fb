import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../src/relay/api/secrets.ts';

describe('reading the bearer token of a request', () => {
  it('takes the one token after "Bearer "', () => {
    expect(bearerToken('Bearer abc_DEF-123')).toBe('abc_DEF-123');
  });

  it.each([undefined, '', 'Bearer', 'Bearer ', 'Bearer a b', 'Basic abc', ' Bearer abc', 'Bearer abc '])(
    'finds none in %j',
    (header) => {
      expect(bearerToken(header)).toBeNull();
    },
  );
});
