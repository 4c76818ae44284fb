import { c32address } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, type AlertRules } from '../../src/domain/alerts/alert-rules.ts';
import type { TransferItem } from '../../src/domain/watch/list-transfer.ts';
import type { Network } from '../../src/domain/network.ts';
import {
  decodeShare,
  missingParts,
  PART_CHARS,
  readParts,
  readSharePart,
  shareFragments,
} from '../../src/domain/watch/share-code.ts';
import { readTypedPrincipal } from '../../src/domain/address/typed-principal.ts';

const VERSIONS: Record<number, Network> = { 22: 'mainnet', 20: 'mainnet', 26: 'testnet', 21: 'testnet' };
const hash = (n: number) => n.toString(16).padStart(40, '0');

const itemArb: fc.Arbitrary<TransferItem> = fc
  .record({
    version: fc.constantFrom(22, 20, 26, 21),
    seed: fc.nat(),
    contract: fc.option(fc.constantFrom('pool', 'wrapped-gold', 'dao-v2'), { nil: undefined }),
    label: fc.string({ maxLength: 64, unit: fc.constantFrom('a', 'Z', ' ', '·', 'é', '金', '🙂', '"', '<', '#') }),
    rules: fc.option(
      fc.record({
        muted: fc.boolean(),
        incoming: fc.boolean(),
        pending: fc.boolean(),
        unsolicitedGuard: fc.boolean(),
        dust: fc.bigInt({ min: 0n, max: 2n ** 64n }),
      }),
      { nil: null },
    ),
  })
  .map(({ version, seed, contract, label, rules }) => {
    const address = c32address(version, hash(seed));
    const principal = contract ? `${address}.${contract}` : address;
    const trimmed = label.trim().replace(/\s+/g, ' ');
    const full: AlertRules | null = rules && {
      ...DEFAULT_RULES,
      muted: rules.muted,
      incoming: rules.incoming,
      pending: rules.pending,
      unsolicitedGuard: rules.unsolicitedGuard,
      minimums: { STX: rules.dust, [`${c32address(22, hash(7))}.wrapped-gold::wgold`]: 3n },
    };
    return {
      entry: {
        principal,
        network: VERSIONS[version]!,
        kind: contract
          ? ('contract' as const)
          : version === 22 || version === 26
            ? ('single-sig' as const)
            : ('multi-sig' as const),
        label: trimmed,
        addedAt: 0,
      },
      rules: full,
    };
  });

const uniqueItems = fc.uniqueArray(itemArb, { minLength: 1, maxLength: 60, selector: (item) => item.entry.principal });

function linkOf(fragment: string) {
  return `https://watch.example/receive#${fragment}`;
}

describe('the list in links and QR codes', () => {
  it('any list, cut into parts and read back in any order, is the same list, networks and rules included', () => {
    fc.assert(
      fc.property(uniqueItems, fc.nat(), (items, shuffleSeed) => {
        const fragments = shareFragments(items);
        expect(fragments.every((fragment) => fragment.length <= PART_CHARS + 40)).toBe(true);
        const order = fragments
          .map((_, at) => at)
          .sort((a, b) => ((a * 7919 + shuffleSeed) % 101) - ((b * 7919 + shuffleSeed) % 101));
        const { parts, problem } = readParts(
          order.map((at) => linkOf(fragments[at]!)),
          [],
        );
        expect(problem).toBeNull();
        expect(missingParts(parts)).toEqual([]);
        const decoded = decodeShare(parts, readTypedPrincipal, 0);
        expect(decoded).toEqual({
          ok: true,
          // Every generated rule set carries minimums, so none is the default set: all travel.
          value: items,
        });
      }),
      { numRuns: 150 },
    );
  });

  it('a long list becomes a sequence; the parts say which are still missing', () => {
    const items = Array.from({ length: 40 }, (_, n) => ({
      entry: {
        principal: c32address(22, hash(n)),
        network: 'mainnet' as const,
        kind: 'single-sig' as const,
        label: `Wallet ${n}`,
        addedAt: 0,
      },
      rules: null,
    }));
    const fragments = shareFragments(items);
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    const { parts } = readParts([linkOf(fragments[2]!), fragments[0]!], []);
    expect(missingParts(parts)).toEqual([2, ...fragments.slice(3).map((_, at) => at + 4)]);
    expect(decodeShare(parts, readTypedPrincipal, 0)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/do not add up/),
    });
  });

  it('a tampered or cut-off part is refused with a message that says so', () => {
    const items = [
      {
        entry: {
          principal: c32address(22, hash(1)),
          network: 'mainnet' as const,
          kind: 'single-sig' as const,
          label: 'Cold',
          addedAt: 0,
        },
        rules: null,
      },
    ];
    const [fragment] = shareFragments(items) as [string];
    const data = fragment.split('.').at(-1)!;
    const flipped = fragment.slice(0, -data.length) + (data[0] === 'A' ? 'B' : 'A') + data.slice(1);
    expect(readSharePart(linkOf(flipped))).toEqual({
      ok: false,
      error:
        'This code is damaged or incomplete (its check does not match): show it again on the other device and read it whole.',
    });
    expect(readSharePart(linkOf(fragment.slice(0, -5)))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/damaged or incomplete/),
    });
    expect(readSharePart(linkOf(fragment.slice(0, 20)))).toMatchObject({
      ok: false,
      error: expect.stringMatching(/incomplete or damaged/),
    });
    expect(readSharePart('https://watch.example/receive')).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not a Stacks Watch list link/),
    });
    expect(readSharePart(`#${fragment.replace('list=1.', 'list=2.')}`)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/newer version/),
    });
  });

  it('a part of another list is refused without losing the parts read so far', () => {
    const make = (label: string) =>
      shareFragments(
        Array.from({ length: 30 }, (_, n) => ({
          entry: {
            principal: c32address(26, hash(n)),
            network: 'testnet' as const,
            kind: 'single-sig' as const,
            label: `${label} ${n}`,
            addedAt: 0,
          },
          rules: null,
        })),
      );
    const [mine, other] = [make('Mine'), make('Other')];
    const first = readParts([mine[0]!], []);
    const mixed = readParts([other[1]!], first.parts);
    expect(mixed.parts).toEqual(first.parts);
    expect(mixed.problem).toMatch(/belongs to another list/);
  });

  it('an address that does not read inside a well-formed code is refused, naming it', () => {
    const typo = c32address(22, hash(5)).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A'));
    const items = [
      {
        entry: { principal: typo, network: 'mainnet' as const, kind: 'single-sig' as const, label: '', addedAt: 0 },
        rules: null,
      },
    ];
    const { parts } = readParts(shareFragments(items), []);
    expect(decodeShare(parts, readTypedPrincipal, 0)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Nothing was added\. Address 1 in the codes: .*checksum does not match/),
    });
  });
});
