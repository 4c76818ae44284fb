import { describe, expect, it } from 'vitest';
import { decodeTokenMetadata } from '../../src/chain/decode.ts';

const metadata = (name: unknown, symbol: unknown, decimals: unknown = 6) => ({ name, symbol, decimals });

describe("a token's metadata, free text its author chose", () => {
  it('loses control and format characters: nothing reorders or hides part of a line', () => {
    expect(decodeTokenMetadata(metadata('\u202EnioC DSU\u202C', '\u202EDSU\u200B'))).toEqual({
      name: 'nioC DSU',
      symbol: 'DSU',
      decimals: 6,
    });
  });

  it('keeps markup as the text it is (rendering is text-only), cut to 64 and 16 characters', () => {
    const decoded = decodeTokenMetadata(metadata(`<img src=x onerror=alert(1)>${'N'.repeat(80)}`, 'S'.repeat(40)));
    expect(decoded.name).toBe(`<img src=x onerror=alert(1)>${'N'.repeat(36)}`);
    expect(decoded.symbol).toHaveLength(16);
  });

  it('refuses a name or symbol with nothing visible, and decimals out of range, saying where', () => {
    expect(() => decodeTokenMetadata(metadata('\u200B\u202E', 'X'))).toThrow(/\$\.name/);
    expect(() => decodeTokenMetadata(metadata('Name', '   '))).toThrow(/\$\.symbol/);
    expect(() => decodeTokenMetadata(metadata('Name', 'X', 19))).toThrow(/decimals/);
  });
});
