import { c32address } from 'c32check';
import { readTypedPrincipal } from '../../src/domain/address/typed-principal.ts';
import { describe, expect, it } from 'vitest';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';
import { describeImportError, parseWatchlistFile, serialiseWatchlist } from '../../src/domain/watch/watchlist-file.ts';

const MAINNET = c32address(22, 'a1'.repeat(20));
const TESTNET = c32address(26, '22'.repeat(20));
const entries: WatchEntry[] = [
  { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: 'Cold wallet', addedAt: 1_700_000_000_000 },
  { principal: `${TESTNET}.pool`, network: 'testnet', kind: 'contract', label: '', addedAt: 1_700_000_001_000 },
];

function importError(text: string): string {
  const result = parseWatchlistFile(text, 5, readTypedPrincipal);
  if (result.ok) throw new Error('expected the file to be refused');
  return describeImportError(result.error);
}

describe('watch list files', () => {
  it('round-trip: an export imports back to the same entries', () => {
    const text = serialiseWatchlist(entries, Date.UTC(2026, 10, 22));
    expect(JSON.parse(text)).toMatchObject({
      format: 'stacks-watch/watchlist',
      version: 1,
      exportedAt: '2026-11-22T00:00:00.000Z',
    });
    expect(parseWatchlistFile(text, 0, readTypedPrincipal)).toEqual({ ok: true, value: entries });
  });

  it('accept a plain JSON list of addresses, canonicalising them', () => {
    expect(
      parseWatchlistFile(
        JSON.stringify([` ${MAINNET.toLowerCase()} `, { address: TESTNET, label: 'Faucet' }]),
        7,
        readTypedPrincipal,
      ),
    ).toEqual({
      ok: true,
      value: [
        { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: '', addedAt: 7 },
        { principal: TESTNET, network: 'testnet', kind: 'single-sig', label: 'Faucet', addedAt: 7 },
      ],
    });
  });

  it('refuse what is not JSON', () => {
    expect(importError('{"format": ')).toMatch(
      /^The file is not valid JSON \(.+\)\. Choose a file exported by Stacks Watch\.$/,
    );
  });

  it('refuse JSON that is not an export', () => {
    expect(importError('{"hello": "world"}')).toMatch(/not a Stacks Watch export/);
    expect(importError('42')).toMatch(/not a Stacks Watch export/);
  });

  it('refuse an export from a newer version', () => {
    expect(importError(JSON.stringify({ format: 'stacks-watch/watchlist', version: 2, entries: [] }))).toMatch(
      /newer version/,
    );
  });

  it('refuse an empty list', () => {
    expect(importError('[]')).toBe('The file holds no addresses.');
  });

  it('refuse the whole file when one entry is bad, naming the entry and the problem', () => {
    const typo = `${MAINNET.slice(0, -1)}${MAINNET.endsWith('A') ? 'B' : 'A'}`;
    const text = JSON.stringify([MAINNET, typo, 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq']);
    expect(importError(text)).toBe(
      `Nothing was imported. Entry 2: “${typo}”: The checksum does not match: check the characters, one is probably mistyped (and 1 more entry with problems).`,
    );
  });

  it('refuse an entry whose network contradicts its address', () => {
    expect(importError(JSON.stringify([{ principal: MAINNET, network: 'testnet' }]))).toMatch(
      /Entry 1: .+ is a mainnet address but is marked testnet/,
    );
    expect(importError(JSON.stringify([{ principal: MAINNET, network: 'devnet' }]))).toMatch(
      /the network “devnet” is not mainnet or testnet/,
    );
  });

  it('refuse bad labels and times', () => {
    expect(importError(JSON.stringify([{ principal: MAINNET, label: 'x'.repeat(65) }]))).toMatch(
      /label has 65 characters/,
    );
    expect(importError(JSON.stringify([{ principal: MAINNET, label: 7 }]))).toMatch(/label is not text/);
    expect(importError(JSON.stringify([{ principal: MAINNET, addedAt: 'yesterday' }]))).toMatch(
      /“addedAt” is not a time/,
    );
  });

  it('refuse files that are too large or hold too many entries', () => {
    expect(importError(' '.repeat(5_000_001))).toMatch(/at most 5 MB/);
    expect(importError(JSON.stringify(Array.from({ length: 10_001 }, () => MAINNET)))).toMatch(
      /10001 addresses; at most 10000/,
    );
  });
});
