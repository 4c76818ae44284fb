import { c32address } from 'c32check';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { readTypedPrincipal } from '../../src/domain/address/typed-principal.ts';
import { describe, expect, it } from 'vitest';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';
import { describeImportError, parseWatchlistFile, serialiseWatchlist } from '../../src/domain/watch/watchlist-file.ts';

const MAINNET = c32address(22, 'a1'.repeat(20));
const TOKEN = `${c32address(22, 'b2'.repeat(20))}.wrapped-gold::wgold`;
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
  it('round-trip: an export imports back to the same entries and alert rules', () => {
    const dust = { ...DEFAULT_RULES, pending: false, minimums: { STX: 5_000_000n, [TOKEN]: 2n ** 63n } };
    const text = serialiseWatchlist(entries, { [`mainnet:${MAINNET}`]: dust }, Date.UTC(2026, 10, 22));
    const file = JSON.parse(text);
    expect(file).toMatchObject({
      format: 'stacks-watch/watchlist',
      version: 2,
      exportedAt: '2026-11-22T00:00:00.000Z',
    });
    expect(file.entries[0].rules).toMatchObject({
      pending: false,
      minimums: { STX: '5000000', [TOKEN]: `${2n ** 63n}` },
    });
    expect(file.entries[1].rules).toBeUndefined();
    expect(parseWatchlistFile(text, 0, readTypedPrincipal)).toEqual({
      ok: true,
      value: [
        { entry: entries[0], rules: dust },
        { entry: entries[1], rules: null },
      ],
    });
  });

  it('read a version 1 file, which has no rules', () => {
    const text = JSON.stringify({ format: 'stacks-watch/watchlist', version: 1, entries: [MAINNET] });
    expect(parseWatchlistFile(text, 3, readTypedPrincipal)).toEqual({
      ok: true,
      value: [
        { entry: { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: '', addedAt: 3 }, rules: null },
      ],
    });
  });

  it('refuse rules that do not read, naming the address, the field and what is expected', () => {
    const file = (rules: unknown) =>
      JSON.stringify({
        format: 'stacks-watch/watchlist',
        version: 2,
        entries: [MAINNET, { principal: MAINNET, rules }],
      });
    expect(importError(file({ pending: 'no' }))).toBe(
      `Nothing was imported. In entry 2, for ${MAINNET}, the rule “pending” is "no"; expected true or false.`,
    );
    expect(importError(file({ loud: true }))).toMatch(
      /“loud” is not an alert rule \(expected muted, incoming, .+ or minimums\)/,
    );
    expect(importError(file({ minimums: { STX: 5 } }))).toMatch(
      /the minimum for STX is 5; expected whole base units as digits, like "1000000"/,
    );
    expect(importError(file({ minimums: { STX: '-5' } }))).toMatch(/the minimum for STX is "-5"/);
    expect(importError(file({ minimums: { gold: '5' } }))).toMatch(/the minimum for “gold” names no asset/);
    expect(importError(file({ minimums: { STX: `${2n ** 64n + 1n}` } }))).toMatch(/larger than any balance/);
    expect(importError(file([true]))).toMatch(/the “rules” are not an object/);
  });

  it('refuse a file whose version or date is not what an export writes', () => {
    const file = (fields: object) =>
      JSON.stringify({ format: 'stacks-watch/watchlist', entries: [MAINNET], ...fields });
    expect(importError(file({ version: '2' }))).toBe(
      'Nothing was imported: the file’s “version” is "2"; expected a whole number from 1 to 2.',
    );
    expect(importError(file({}))).toMatch(/“version” is missing; expected a whole number/);
    expect(importError(file({ version: 2, exportedAt: 'soon' }))).toMatch(
      /“exportedAt” is "soon"; expected a date and time such as 2026-11-24T13:00:00.000Z/,
    );
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
        // Written in lower case (the spaces around it are not a spelling): said respelled.
        {
          entry: { principal: MAINNET, network: 'mainnet', kind: 'single-sig', label: '', addedAt: 7 },
          rules: null,
          respelled: true,
        },
        {
          entry: { principal: TESTNET, network: 'testnet', kind: 'single-sig', label: 'Faucet', addedAt: 7 },
          rules: null,
        },
      ],
    });
  });

  it('refuse what is not JSON', () => {
    // In words a user can act on: no parser message ("Unexpected end of JSON input").
    expect(importError('{"format": ')).toBe(
      'The file is not valid JSON, so it cannot be a watch list. Choose a file made with “Export”, or a JSON list of addresses.',
    );
  });

  it('refuse JSON that is not an export', () => {
    expect(importError('{"hello": "world"}')).toMatch(/not a Stacks Watch export/);
    expect(importError('42')).toMatch(/not a Stacks Watch export/);
  });

  it('refuse an export from a newer version', () => {
    expect(importError(JSON.stringify({ format: 'stacks-watch/watchlist', version: 3, entries: [] }))).toMatch(
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
      `Nothing was imported. In entry 2, “${typo}” is not a valid Stacks address. The checksum does not match: check the characters, one is probably mistyped (and 1 more entry with problems).`,
    );
  });

  it('refuse an entry whose network contradicts its address', () => {
    expect(importError(JSON.stringify([{ principal: MAINNET, network: 'testnet' }]))).toMatch(
      /In entry 1, .+ is a mainnet address but is marked testnet/,
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
