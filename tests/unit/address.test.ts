import { c32address } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsePrincipal, type AddressError } from '../../src/domain/address/address.ts';
import { describeAddressError, respellingReason } from '../../src/domain/address/address-messages.ts';

const HASH = 'a46ff88886c2ef9762d970b4d2c63678835bd39d';
const MAINNET = c32address(22, HASH);
const MAINNET_MULTISIG = c32address(20, HASH);
const TESTNET = c32address(26, HASH);
const TESTNET_MULTISIG = c32address(21, HASH);
/** A testnet address recorded from the real API (../shared fixtures). */
const RECORDED_TESTNET = 'ST18MDW2PDTBSCR1ACXYRJP2JX70FWNM6YY2VX4SS';

function errorOf(input: string, network?: 'mainnet' | 'testnet'): AddressError {
  const result = parsePrincipal(input, { network });
  if (result.ok) throw new Error(`expected ${input} to be refused`);
  return result.error;
}

const messageFor = (input: string, network?: 'mainnet' | 'testnet') => describeAddressError(errorOf(input, network));

describe('parsePrincipal accepts', () => {
  it.each([
    [MAINNET, 'mainnet', 'single-sig', 22, 'SP'],
    [MAINNET_MULTISIG, 'mainnet', 'multi-sig', 20, 'SM'],
    [TESTNET, 'testnet', 'single-sig', 26, 'ST'],
    [TESTNET_MULTISIG, 'testnet', 'multi-sig', 21, 'SN'],
  ])('%s as %s %s (version %i)', (address, network, kind, version, prefix) => {
    const result = parsePrincipal(address);
    expect(result).toEqual({
      ok: true,
      value: {
        principal: address,
        address,
        contractName: null,
        network,
        kind,
        version,
        hash160: HASH,
        respelled: null,
      },
    });
    expect(address.startsWith(prefix)).toBe(true);
  });

  it('an address recorded from the real API', () => {
    expect(parsePrincipal(RECORDED_TESTNET)).toMatchObject({
      ok: true,
      value: { network: 'testnet', kind: 'single-sig' },
    });
  });

  it('surrounding whitespace and a lowercase paste, giving the canonical form', () => {
    expect(parsePrincipal(`  \n${MAINNET.toLowerCase()}\t `)).toMatchObject({
      ok: true,
      value: { principal: MAINNET },
    });
  });

  it('a lowercase or mixed-case paste, saying that it was respelled in capitals', () => {
    const mixed = `${TESTNET.slice(0, 10).toLowerCase()}${TESTNET.slice(10)}`;
    for (const typed of [TESTNET.toLowerCase(), mixed]) {
      const result = parsePrincipal(typed);
      expect(result).toMatchObject({ ok: true, value: { principal: TESTNET, respelled: { lowercase: true } } });
      if (!result.ok || !result.value.respelled) throw new Error('expected a respelling');
      expect(`Saved as ${result.value.principal} — ${respellingReason(result.value.respelled)}.`).toBe(
        `Saved as ${TESTNET} — Stacks addresses are written in capitals.`,
      );
    }
    // Typed as it is written (spaces at the ends aside), it says nothing.
    expect(parsePrincipal(` ${TESTNET}\n`)).toMatchObject({ ok: true, value: { respelled: null } });
    // A contract principal: its address part only (a contract name is taken as typed, and may hold lower case).
    expect(parsePrincipal(`${TESTNET}.my-vault`)).toMatchObject({ ok: true, value: { respelled: null } });
    expect(parsePrincipal(`${TESTNET.toLowerCase()}.my-vault`)).toMatchObject({
      ok: true,
      value: { principal: `${TESTNET}.my-vault`, respelled: { lowercase: true, lookalikes: [] } },
    });
  });

  it('O, I and L typed for 0 and 1: said with where they were and the digit they read as', () => {
    const address = c32address(22, '0000000000000000000000000000000000000121');
    expect(address).toBe('SP000000000000000000147S8WS39');
    // The digit 0 at position 5 typed as "O", the 1 at position 21 as "l".
    const typed = `${address.slice(0, 4)}O${address.slice(5, 20)}l${address.slice(21)}`;
    const result = parsePrincipal(typed);
    if (!result.ok) throw new Error(`expected ${typed} to be accepted`);
    expect(result.value.principal).toBe(address);
    expect(result.value.respelled).toEqual({
      lowercase: true,
      lookalikes: [
        { char: 'O', position: 5, digit: '0' },
        { char: 'l', position: 21, digit: '1' },
      ],
    });
    expect(respellingReason(result.value.respelled!)).toBe(
      'Stacks addresses are written in capitals, and in them “O” reads as 0 and “l” as 1',
    );
    expect(respellingReason({ lowercase: false, lookalikes: [{ char: 'I', position: 9, digit: '1' }] })).toBe(
      'in a Stacks address “I” reads as 1',
    );
  });

  it("c32's lenient spellings (O for 0, I and L for 1), giving the canonical form", () => {
    const address = c32address(22, '0000000000000000000000000000000000000001');
    const lenient = address.replace(/0/g, 'O').replace(/1/g, 'L');
    expect(lenient).not.toBe(address);
    expect(parsePrincipal(lenient)).toMatchObject({ ok: true, value: { principal: address } });
  });

  it('the shortest spelling (an all-zero hash)', () => {
    const boot = c32address(22, '0'.repeat(40));
    expect(boot).toBe('SP000000000000000000002Q6VF78');
    expect(parsePrincipal(boot)).toMatchObject({ ok: true, value: { principal: boot } });
  });

  it('a contract principal, keeping the contract name as typed and canonicalising the address', () => {
    const result = parsePrincipal(` ${MAINNET.toLowerCase()}.Token-v2_final `);
    expect(result).toEqual({
      ok: true,
      value: {
        principal: `${MAINNET}.Token-v2_final`,
        address: MAINNET,
        contractName: 'Token-v2_final',
        network: 'mainnet',
        kind: 'contract',
        version: 22,
        hash160: HASH,
        respelled: { lowercase: true, lookalikes: [] },
      },
    });
  });

  it('an address of the chosen network', () => {
    expect(parsePrincipal(TESTNET, { network: 'testnet' }).ok).toBe(true);
    expect(parsePrincipal(MAINNET, { network: 'mainnet' }).ok).toBe(true);
  });
});

describe('parsePrincipal refuses, saying what is wrong', () => {
  it('empty input', () => {
    expect(errorOf('')).toEqual({ kind: 'empty' });
    expect(errorOf(' \n\t ')).toEqual({ kind: 'empty' });
    expect(messageFor('')).toMatch(/Enter a Stacks address/);
  });

  it('a one-character typo, with the checksum message', () => {
    const last = MAINNET.at(-1) === 'A' ? 'B' : 'A';
    const typo = `${MAINNET.slice(0, -1)}${last}`;
    expect(errorOf(typo)).toEqual({ kind: 'checksum', length: 41 });
    expect(messageFor(typo)).toBe('The checksum does not match: check the characters, one is probably mistyped.');
  });

  it('a missing character, hinting that one may be missing', () => {
    const short = MAINNET.slice(0, 20) + MAINNET.slice(21);
    expect(messageFor(short)).toMatch(/mistyped or missing \(this has 40 characters; most Stacks addresses have 41\)/);
  });

  it('too long or too short', () => {
    expect(errorOf(`${MAINNET}7`)).toEqual({ kind: 'length', length: 42 });
    expect(messageFor(`${MAINNET}7`)).toMatch(/42 characters; a Stacks address has at most 41/);
    expect(errorOf('SP2J6ZY48GV1')).toEqual({ kind: 'length', length: 12 });
    expect(messageFor('SP2J6ZY48GV1')).toMatch(/12 characters.*copied whole/);
  });

  it('characters that cannot be in an address, naming which and where', () => {
    const withU = `${MAINNET.slice(0, 9)}U${MAINNET.slice(10)}`;
    expect(errorOf(withU)).toEqual({ kind: 'characters', invalid: [{ char: 'U', position: 10 }] });
    expect(messageFor(withU)).toBe(
      'This character cannot be in a Stacks address: “U” at position 10. Addresses use digits and the letters A–Z except U.',
    );
    const messy = `${MAINNET.slice(0, 5)} ${MAINNET.slice(6, 12)}-${MAINNET.slice(13, 20)}\u200b${MAINNET.slice(21)}`;
    expect(messageFor(messy)).toBe(
      'These characters cannot be in a Stacks address: a space at position 6, “-” at position 13, an invisible character (U+200B) at position 21. Addresses use digits and the letters A–Z except U.',
    );
  });

  it('a version byte that is not 22, 20, 26 or 21', () => {
    const other = c32address(10, HASH);
    expect(other.slice(0, 2)).toBe('SA');
    expect(errorOf(other)).toEqual({ kind: 'version', prefix: 'SA', version: 10 });
    expect(messageFor(other)).toMatch(
      /^“SA” is not a Stacks address prefix\. Stacks addresses start with SP or SM on mainnet, ST or SN on testnet/,
    );
  });

  it('an input not starting with S', () => {
    expect(errorOf(`X${MAINNET.slice(1)}`)).toEqual({ kind: 'prefix', found: 'X' });
  });

  it('an address of the other network than the one chosen', () => {
    expect(errorOf(TESTNET, 'mainnet')).toEqual({ kind: 'network', expected: 'mainnet', actual: 'testnet' });
    expect(messageFor(TESTNET, 'mainnet')).toBe(
      'This is a testnet address, but Mainnet is selected. Choose Testnet or enter a mainnet address (SP or SM).',
    );
    expect(messageFor(MAINNET_MULTISIG, 'testnet')).toMatch(/This is a mainnet address, but Testnet is selected/);
  });

  it.each([
    ['', 'missing', /contract name after the dot is missing/],
    ['1token', 'first-character', /cannot start with “1”/],
    ['my.token', 'character', /cannot contain “\.” at position 3 of the name\./],
    ['tok en', 'character', /cannot contain a space/],
    ['a'.repeat(41), 'too-long', /has 41 characters/],
  ])('an invalid contract name %j', (name, problem, message) => {
    expect(errorOf(`${MAINNET}.${name}`)).toMatchObject({ kind: 'contract-name', problem });
    expect(messageFor(`${MAINNET}.${name}`)).toMatch(message);
  });

  it.each([
    ['1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa', 'bitcoin'],
    ['3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy', 'bitcoin'],
    ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', 'bitcoin'],
    ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'bitcoin'],
    ['mipcBbFg9gMiCh81Kj8tqqdgoZub1ZJRfn', 'bitcoin'],
    ['0xde0B295669a9FD93d5F28D9Ec85E40f4cb697BAe', 'ethereum'],
  ])('%s, recognised as %s', (input, chain) => {
    expect(errorOf(input)).toEqual({ kind: 'foreign', chain });
    const name = chain === 'bitcoin' ? 'a Bitcoin' : 'an Ethereum';
    expect(messageFor(input)).toBe(
      `This is ${name} address. Stacks addresses start with SP or SM on mainnet, ST or SN on testnet.`,
    );
  });

  it('a BNS name, pointing at the address it belongs to', () => {
    expect(errorOf('Muneeb.BTC')).toEqual({ kind: 'name', name: 'muneeb.btc' });
    expect(messageFor('muneeb.btc')).toMatch(/“muneeb\.btc” looks like a BNS name/);
  });

  it('markup or other text with a dot is not offered a BNS lookup, and is refused for what it is', () => {
    expect(errorOf('<img src=x onerror=alert(1)>.btc')).toEqual({ kind: 'prefix', found: '<' });
    expect(errorOf('s\u202eevil.btc')).toMatchObject({ kind: 'characters' });
  });

  it('look-alike and space-like characters are named by their code point, so they can be found', () => {
    const cyrillicO = `${MAINNET.slice(0, 9)}\u041E${MAINNET.slice(10)}`;
    expect(messageFor(cyrillicO)).toContain('“\u041E” (U+041E, not a Latin letter or digit) at position 10');
    const nbsp = `${MAINNET.slice(0, 9)}\u00A0${MAINNET.slice(9)}`;
    expect(messageFor(nbsp)).toContain('a special space (U+00A0) at position 10');
    expect(messageFor(`\u202E${MAINNET}`)).toContain('not an invisible character (U+202E)');
    expect(messageFor(`${MAINNET}.to\u0301ken`)).toContain('a combining mark (U+0301) at position 3 of the name');
  });
});

describe('parsePrincipal properties', () => {
  const versions = fc.constantFrom(20, 21, 22, 26);
  const hash160 = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => Buffer.from(bytes).toString('hex'));

  it('every valid address re-encodes to itself, whatever its case and padding', () => {
    fc.assert(
      fc.property(
        versions,
        hash160,
        fc.boolean(),
        fc.string({ unit: fc.constantFrom(' ', '\t', '\n'), maxLength: 3 }),
        (version, hash, lower, pad) => {
          const address = c32address(version, hash);
          const typed = `${pad}${lower ? address.toLowerCase() : address}${pad}`;
          const result = parsePrincipal(typed);
          expect(result.ok && result.value.principal).toBe(address);
          expect(result.ok && result.value.hash160).toBe(hash);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a single changed character is refused or reads as the same address, never as another one', () => {
    const alphabet = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
    fc.assert(
      fc.property(versions, hash160, fc.nat(), fc.constantFrom(...alphabet), (version, hash, at, char) => {
        const address = c32address(version, hash);
        const index = 2 + (at % (address.length - 2));
        const changed = address.slice(0, index) + char + address.slice(index + 1);
        const result = parsePrincipal(changed);
        if (result.ok) expect(result.value.principal).toBe(address);
      }),
      { numRuns: 1000 },
    );
  });

  it('no input of any kind throws, and every refusal has a message', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 60 }),
      fc.string({ unit: fc.constantFrom(...'SPMTN0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcxyz.-_ '), maxLength: 90 }),
      fc.tuple(versions, hash160, fc.string({ maxLength: 50 })).map(([v, h, tail]) => `${c32address(v, h)}${tail}`),
    );
    fc.assert(
      fc.property(anyText, fc.constantFrom(undefined, 'mainnet' as const, 'testnet' as const), (input, network) => {
        const result = parsePrincipal(input, { network });
        if (!result.ok) expect(describeAddressError(result.error).length).toBeGreaterThan(10);
      }),
      { numRuns: 3000 },
    );
    // 3,000 inputs take about a second alone; on two busy cores, several.
  });
});
