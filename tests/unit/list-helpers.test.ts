import { describe, expect, it } from 'vitest';
import { c32address } from 'c32check';
import { compactAddressInput } from '../../src/domain/address/address-input.ts';
import { parsePrincipal } from '../../src/domain/address/address.ts';
import { describeAddressError } from '../../src/domain/address/address-messages.ts';
import { describeFreshness, freshness, notKnownWords } from '../../src/domain/state/freshness.ts';
import { middleEllipsis } from '../../src/domain/address/middle-ellipsis.ts';
import { addressFromQr } from '../../src/domain/address/qr-address.ts';
import { filterEntries } from '../../src/domain/watch/watch-filter.ts';
import type { WatchEntry } from '../../src/domain/watch/watch-entry.ts';

const MAINNET = c32address(22, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const TESTNET = c32address(26, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');

describe('a pasted address', () => {
  it('parses when pasted in groups of four, across lines or with invisible spaces', () => {
    const grouped = MAINNET.match(/.{1,4}/g)!.join(' ');
    for (const pasted of [grouped, `${MAINNET.slice(0, 10)}\n${MAINNET.slice(10)}`, `\u200B${MAINNET}\u00A0`]) {
      const parsed = parsePrincipal(compactAddressInput(pasted));
      expect(parsed.ok && parsed.value.principal).toBe(MAINNET);
    }
  });

  it('keeps a contract name as typed, so a character it cannot hold is named, never dropped', () => {
    const refusal = (pasted: string) => {
      const parsed = parsePrincipal(compactAddressInput(pasted));
      return parsed.ok ? `accepted as ${parsed.value.principal}` : describeAddressError(parsed.error);
    };
    const rule = 'A contract name starts with a letter and uses letters, digits, “-” and “_”, at most 40 characters.';
    expect(refusal(`${MAINNET}.my contract`)).toBe(
      `The contract name cannot contain a space at position 3 of the name. ${rule}`,
    );
    expect(refusal(`${MAINNET}.my\u00A0contract`)).toBe(
      `The contract name cannot contain a special space (U+00A0) at position 3 of the name. ${rule}`,
    );
    expect(refusal(`${MAINNET}.my\u200Bcontract`)).toBe(
      `The contract name cannot contain an invisible character (U+200B) at position 3 of the name. ${rule}`,
    );
    expect(refusal(`${MAINNET}. my-contract`)).toBe(`The contract name cannot start with a space. ${rule}`);
    expect(refusal(`${MAINNET}.my.contract`)).toBe(
      `The contract name cannot contain “.” at position 3 of the name. ${rule}`,
    );
  });

  it('still trims the ends of the whole input and the groups of the address before a contract name', () => {
    const grouped = MAINNET.match(/.{1,4}/g)!.join(' ');
    for (const pasted of [`  ${MAINNET}.my-contract \n`, `\u200B${grouped}.my-contract\u00A0`]) {
      const parsed = parsePrincipal(compactAddressInput(pasted));
      expect(parsed.ok && parsed.value.principal).toBe(`${MAINNET}.my-contract`);
    }
    // A BNS name is read whole, as before: only a contract principal keeps what follows its dot.
    expect(compactAddressInput(' alice .btc ')).toBe('alice.btc');
  });
});

describe('middleEllipsis', () => {
  it('keeps both ends of an address and a contract name whole', () => {
    expect(middleEllipsis(MAINNET)).toBe(`${MAINNET.slice(0, 6)}…${MAINNET.slice(-4)}`);
    expect(middleEllipsis(`${MAINNET}.demo-vault`)).toBe(`${MAINNET.slice(0, 6)}…${MAINNET.slice(-4)}.demo-vault`);
    expect(middleEllipsis('SP123')).toBe('SP123');
  });
});

describe('filterEntries', () => {
  const entry = (principal: string, network: 'mainnet' | 'testnet', label: string, name?: string): WatchEntry => ({
    principal,
    network,
    kind: 'single-sig',
    label,
    addedAt: 0,
    ...(name ? { name } : {}),
  });
  const list = [entry(MAINNET, 'mainnet', 'Cold wallet'), entry(TESTNET, 'testnet', 'Treasury', 'alice.btc')];

  it('matches label, name, address (spaces ignored) and network, every word', () => {
    expect(filterEntries(list, 'cold').map((e) => e.label)).toEqual(['Cold wallet']);
    expect(filterEntries(list, 'ALICE').map((e) => e.label)).toEqual(['Treasury']);
    expect(filterEntries(list, TESTNET.slice(0, 8).toLowerCase()).map((e) => e.label)).toEqual(['Treasury']);
    expect(
      filterEntries(
        list,
        MAINNET.slice(0, 12)
          .match(/.{1,4}/g)!
          .join(' '),
      ).map((e) => e.label),
    ).toEqual(['Cold wallet']);
    expect(filterEntries(list, 'testnet treasury').map((e) => e.label)).toEqual(['Treasury']);
    expect(filterEntries(list, 'cold treasury')).toEqual([]);
    expect(filterEntries(list, '', 'mainnet').map((e) => e.label)).toEqual(['Cold wallet']);
    expect(filterEntries(list, '')).toBe(list);
  });

  it('finds an address by the BNS name the app resolved for it, not only the one it was added by', () => {
    const resolved = new Map([[MAINNET, 'coldstore.btc']]);
    expect(filterEntries(list, 'coldstore').map((e) => e.label)).toEqual([]);
    expect(filterEntries(list, 'coldstore', 'all', (p) => resolved.get(p)).map((e) => e.label)).toEqual([
      'Cold wallet',
    ]);
    expect(filterEntries(list, 'alice', 'all', (p) => resolved.get(p)).map((e) => e.label)).toEqual(['Treasury']);
  });
});

describe('freshness', () => {
  const now = Date.parse('2026-11-23T12:00:00Z');
  it('is live while the feed is up, else the age of the oldest check', () => {
    expect(describeFreshness(freshness({ live: true, checkedAt: now - 600_000 }), now)).toBe('live');
    expect(describeFreshness(freshness({ live: false, checkedAt: now - 120_000 }), now)).toBe('checked 2 min ago');
    expect(describeFreshness(freshness({ live: true, checkedAt: null }), now)).toBe('not checked yet');
  });

  it('while the node cannot be reached, says when the figures were last read and why, never a recent check', () => {
    const read = { live: false, checkedAt: now - 180_000 };
    expect(describeFreshness(freshness({ ...read, away: 'unreachable' }), now)).toBe(
      'last updated 3 min ago — node unreachable',
    );
    expect(describeFreshness(freshness({ ...read, away: 'offline' }), now)).toBe('last updated 3 min ago — offline');
    expect(describeFreshness(freshness({ ...read, away: null }), now)).toBe('checked 3 min ago');
    expect(describeFreshness(freshness({ live: false, checkedAt: null, away: 'unreachable' }), now)).toBe(
      'not checked yet',
    );
  });

  it('counts a live feed’s time as read: figures synced an hour ago were current until the feed was lost', () => {
    const lost = { live: false, checkedAt: now - 3_600_000, liveUntil: now - 120_000 };
    expect(describeFreshness(freshness({ ...lost, away: 'reconnecting' }), now)).toBe(
      'last updated 2 min ago — reconnecting',
    );
    expect(describeFreshness(freshness({ ...lost, away: 'unreachable' }), now)).toBe(
      'last updated 2 min ago — node unreachable',
    );
    // A sync since the feed was lost is the later read.
    expect(describeFreshness(freshness({ ...lost, checkedAt: now - 60_000 }), now)).toBe('checked 1 min ago');
  });
});

describe('a figure never read', () => {
  it('says why it is not known when the node cannot be reached, and "not known yet" otherwise', () => {
    expect(notKnownWords('unreachable')).toBe('node unreachable');
    expect(notKnownWords('offline')).toBe('offline');
    expect(notKnownWords('reconnecting')).toBe('not known yet');
    expect(notKnownWords(null)).toBe('not known yet');
  });
});

describe('addressFromQr', () => {
  it('reads a bare address or a wallet payment URI', () => {
    expect(addressFromQr(MAINNET)).toBe(MAINNET);
    expect(addressFromQr(`stacks:${MAINNET}?amount=1000000`)).toBe(MAINNET);
    expect(addressFromQr(`web+stacks://${TESTNET}`)).toBe(TESTNET);
    expect(addressFromQr(` STX:${MAINNET} `)).toBe(MAINNET);
  });
});
