/**
 * 100,000 generated inputs through the address parser: valid addresses of every version, the same mangled the ways
 * people and attackers mangle them, contract principals, foreign addresses, BNS-like names and arbitrary Unicode.
 * Seeded: ADDRESS_SEED=<n> repeats a run; a failure prints the seed and the shrunk input.
 */
import { c32address, c32checkEncode } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrincipal, type AddressError } from '../../src/domain/address/address.ts';
import { describeAddressError } from '../../src/domain/address/address-messages.ts';

const RUNS = 100_000;
const SEED = Number(process.env.ADDRESS_SEED ?? 20261123);

const C32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const NETWORK_OF: Record<number, string> = { 22: 'mainnet', 20: 'mainnet', 26: 'testnet', 21: 'testnet' };
const CANONICAL = /^S[PMTN][0-9A-HJKMNP-TV-Z]{26,39}$/;
const GENERIC = /^(invalid( address)?|error|something went wrong|bad input)\.?$/i;

const hash = (bytes: number) =>
  fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => Buffer.from(b).toString('hex'));
const anyVersion = fc.oneof(fc.constantFrom(22, 20, 26, 21), fc.integer({ min: 0, max: 31 }));
const validAddress = fc.tuple(fc.constantFrom(22, 20, 26, 21), hash(20)).map(([v, h]) => c32address(v, h));
const hostileChar = fc.constantFrom(
  ...[' ', '\t', '\n', '\u00A0', '\u2007', '\u3000', '\u200B', '\u200D', '\uFEFF', '\u202E', '\u2066', '\u0301'],
  ...['О', 'Ѕ', 'Р', 'ꓑ', '０', 'Ｓ', '.', '-', '_', '/', ':', '?', '<', '"', '\u0000', '\uD800', '😀', 'U', 'u'],
);
const contractName = fc.oneof(
  fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9_-]{0,45}$/),
  fc.string({ unit: 'binary', maxLength: 44 }),
);

type Edit = (address: string) => string;
const at = (text: string, index: number) => index % Math.max(1, text.length);
const edit = fc.oneof(
  fc.constant<Edit>((a) => a.toLowerCase()),
  fc.nat().map<Edit>((i) => (a) => a.slice(0, at(a, i)) + a.slice(at(a, i) + 1)),
  fc.tuple(fc.nat(), fc.constantFrom(...C32, 'O', 'I', 'L', 'o', 'i', 'l')).map<Edit>(
    ([i, c]) =>
      (a) =>
        a.slice(0, at(a, i)) + c + a.slice(at(a, i) + 1),
  ),
  fc.tuple(fc.nat(), fc.oneof(hostileChar, fc.constantFrom(...C32))).map<Edit>(
    ([i, c]) =>
      (a) =>
        a.slice(0, at(a, i)) + c + a.slice(at(a, i)),
  ),
  fc.nat().map<Edit>((i) => (a) => a.slice(0, at(a, i))),
  fc.nat({ max: 40 }).map<Edit>((n) => (a) => a + '0'.repeat(n)),
  fc.constant<Edit>((a) => a.replace(/0/g, 'O').replace(/1/g, 'l')),
  fc.constant<Edit>((a) => a.replace(/(.{4})/g, '$1 ')),
  contractName.map<Edit>((name) => (a) => `${a}.${name}`),
);
const mangled = fc
  .tuple(validAddress, fc.array(edit, { minLength: 1, maxLength: 3 }))
  .map(([address, edits]) => edits.reduce((text, change) => change(text), address));

const input = fc.oneof(
  { weight: 3, arbitrary: validAddress },
  { weight: 2, arbitrary: fc.tuple(validAddress, contractName).map(([a, n]) => `${a}.${n}`) },
  { weight: 6, arbitrary: mangled },
  {
    weight: 2,
    arbitrary: fc
      .tuple(anyVersion, fc.oneof(hash(19), hash(20), hash(21), hash(1)))
      .map(([v, h]) => `S${c32checkEncode(v, h)}`),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.constantFrom(...('SPMTNspmtn0OIL1U.-_ ' + C32)), maxLength: 50 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^(bc1|tb1|0x|[13])[0-9a-zA-Z]{20,60}$/) },
  { weight: 1, arbitrary: fc.stringMatching(/^[a-z0-9-]{1,20}\.(btc|id|stx)$/) },
  { weight: 1, arbitrary: fc.string({ unit: hostileChar, maxLength: 12 }) },
);
const network = fc.constantFrom(undefined, 'mainnet' as const, 'testnet' as const);

/** c32's reading of a spelling: what the parser canonicalises to when it accepts. */
const c32Reading = (text: string) => text.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1');

/** An independent naming of a refused character: what the message must call it for the user to find it. */
function expectedName(char: string): string {
  if (char === ' ') return 'a space';
  if (char === '\t') return 'a tab';
  if (char === '\n' || char === '\r') return 'a line break';
  if (/^[\x21-\x7E]$/.test(char)) return `“${char}”`;
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The details a specific refusal must carry: a user reading it learns what exactly was wrong with this input. */
function detailsOf(error: AddressError): string[] {
  switch (error.kind) {
    case 'empty':
    case 'foreign':
      return [];
    case 'name':
      return [error.name];
    case 'prefix':
      return [expectedName(error.found)];
    case 'characters':
      return error.invalid.slice(0, 3).map(({ position }) => `at position ${position}`);
    case 'length':
      return [String(error.length)];
    case 'version':
      return [`“${error.prefix}”`, 'not a Stacks address prefix'];
    case 'checksum':
      return ['checksum'];
    case 'hash-length':
      return [`${error.bytes} bytes`];
    case 'network':
      return [error.actual];
    case 'contract-name':
      return error.problem === 'character'
        ? [expectedName(error.char), `position ${error.position}`]
        : error.problem === 'first-character'
          ? [expectedName(error.char)]
          : ['contract name'];
  }
}

/** Plain checks: `expect` costs more than the parser itself, and this runs 100,000 times. */
function must(condition: boolean, what: string, detail: unknown = ''): void {
  if (!condition) throw new Error(`${what}${detail === '' ? '' : `: ${JSON.stringify(detail)}`}`);
}

const BNS_NAME = /^[a-z0-9_-]+(\.[a-z0-9_-]+){1,2}$/;

describe(`parsePrincipal over ${RUNS.toLocaleString('en')} generated inputs (seed ${SEED})`, () => {
  it('never throws; refuses with a specific message; accepts only what re-encodes to itself', () => {
    const seen = new Map<string, number>();
    fc.assert(
      fc.property(input, network, (text, expected) => {
        const result = parsePrincipal(text, { network: expected });
        if (!result.ok) {
          const { error } = result;
          const message = describeAddressError(error);
          seen.set(error.kind, (seen.get(error.kind) ?? 0) + 1);
          must(!GENERIC.test(message), 'generic message', message);
          must(!/undefined|NaN|\[object|null/.test(message), 'message with a placeholder', message);
          for (const detail of detailsOf(error)) must(message.includes(detail), `message lacks “${detail}”`, message);
          if (error.kind === 'characters') {
            for (const { char } of error.invalid.slice(0, 3)) {
              must(message.includes(expectedName(char)), `character ${expectedName(char)} not named`, message);
            }
          }
          // Only a real BNS shape is offered a name lookup (it is sent to a BNS host).
          if (error.kind === 'name') must(BNS_NAME.test(error.name), 'not a BNS name', error.name);
          return;
        }
        seen.set('accepted', (seen.get('accepted') ?? 0) + 1);
        const { principal, address, contractName, version, hash160, network: actual } = result.value;
        must(CANONICAL.test(address), 'not canonical', address);
        must(c32address(version, hash160) === address, 'does not re-encode', address);
        must(/^[0-9a-f]{40}$/.test(hash160), 'hash is not 20 bytes', hash160);
        must(actual === NETWORK_OF[version], 'network differs from the version byte', { version, actual });
        must(!expected || actual === expected, 'network not the one chosen', { expected, actual });
        must(principal === (contractName === null ? address : `${address}.${contractName}`), 'principal', principal);
        // The typed address part is the canonical one up to case and c32's O/I/L: nothing else is forgiven.
        const typedAddress = text.trim().split('.')[0] ?? '';
        must(c32Reading(typedAddress) === address, 'a different spelling was accepted', { text, address });
        // Said to be respelled exactly when the typed address part is not the canonical one.
        must((result.value.respelled === null) === (typedAddress === address), 'respelling misreported', text);
        // The canonical form reads back as exactly the same principal, typed as it is written (checked for one in
        // sixteen: it costs a decode).
        if (hash160.endsWith('0'))
          must(
            JSON.stringify(parsePrincipal(principal)) ===
              JSON.stringify({ ...result, value: { ...result.value, respelled: null } }),
            'canonical form reads differently',
          );
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
    // Every kind of outcome was reached, so a generator that silently stopped producing one fails here.
    const kinds = ['accepted', 'empty', 'foreign', 'name', 'prefix', 'characters', 'length', 'version'];
    for (const kind of [...kinds, 'checksum', 'hash-length', 'network', 'contract-name']) {
      expect(seen.get(kind) ?? 0, kind).toBeGreaterThan(0);
    }
  });
});
