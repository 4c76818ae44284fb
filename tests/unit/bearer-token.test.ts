import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../src/relay/api/secrets.ts';

describe('reading the bearer token of a request', () => {
  it('takes the one token after "Bearer "', () => {
    expect(bearerToken('Bearer abc_DEF-123')).toBe('abc_DEF-123');
  });

  it('reads the scheme in any case, as HTTP says a scheme is (the token as sent)', () => {
    expect(bearerToken('bearer abc_DEF')).toBe('abc_DEF');
    expect(bearerToken('BEARER abc_DEF')).toBe('abc_DEF');
    expect(bearerToken('Bearer  abc_DEF')).toBe('abc_DEF');
  });

  it.each([
    undefined,
    '',
    'Bearer',
    'Bearer ',
    'Bearer a b',
    'Basic abc',
    'Token abc',
    'Bearerabc',
    'Bearer\tabc',
    'Bearer: abc',
    'Bearer abc, Bearer def',
    ' Bearer abc',
    'Bearer abc ',
  ])('finds none in %j', (header) => {
    expect(bearerToken(header)).toBeNull();
  });
});
