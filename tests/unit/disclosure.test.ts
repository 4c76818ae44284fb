import { c32address } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { originOf, revealedPrincipals, type Outbound } from '../../src/domain/privacy/disclosure.ts';
import {
  hostsToForget,
  MAX_ADDRESSES_PER_HOST,
  MAX_HOSTS,
  mergeHostRecords,
  readHostRecord,
  sightingRecord,
  type HostRecord,
} from '../../src/domain/privacy/disclosure-record.ts';
import { hostRole, purposesText, whatItLearned, type CurrentHosts } from '../../src/domain/privacy/disclosure-text.ts';

const ALICE = c32address(26, 'a46ff88886c2ef9762d970b4d2c63678835bd39d');
const BOB = c32address(26, '1111111111111111111111111111111111111111');
const CAROL = c32address(22, '2222222222222222222222222222222222222222');
const VAULT = `${CAROL}.demo-vault`;
const STRANGER = c32address(26, '3333333333333333333333333333333333333333');
const WATCHED = new Set([ALICE, BOB, CAROL, VAULT]);
const NODE = 'https://node.example';

const http = (url: string, body: string | null = null): Outbound => ({ via: 'http', url, body, purpose: 'chain' });
const socket = (topics: string[]): Outbound => ({ via: 'socket', url: NODE, topics, purpose: 'live' });

describe('which watched principals a request reveals', () => {
  it('finds them in a URL path, encoded or not', () => {
    expect(revealedPrincipals(http(`${NODE}/extended/v3/principals/${ALICE}/balances/stx`), WATCHED)).toEqual([ALICE]);
    expect(revealedPrincipals(http(`${NODE}/v1/addresses/stacks/${encodeURIComponent(BOB)}`), WATCHED)).toEqual([BOB]);
  });

  it('finds them in the query, among other parameters', () => {
    const url = `${NODE}/extended/v1/tx/multiple?tx_id=0xabc&principal=${ALICE}&other=${encodeURIComponent(`[${BOB}]`)}`;
    expect(revealedPrincipals(http(url), WATCHED)).toEqual([ALICE, BOB]);
  });

  it('finds them anywhere in a JSON body, keys included, and in a body that is not JSON', () => {
    const body = JSON.stringify({
      subscription: { endpoint: 'https://push.example/abc' },
      watches: [{ network: 'testnet', principal: ALICE, rules: { minimums: { [`${BOB}.token::gold`]: '5' } } }],
    });
    expect(revealedPrincipals({ ...http(`${NODE}/v1/devices/xyz`, body), purpose: 'relay' }, WATCHED)).toEqual([
      ALICE,
      BOB,
    ]);
    expect(revealedPrincipals(http(`${NODE}/x`, `principal=${CAROL}&a=1`), WATCHED)).toEqual([CAROL]);
  });

  it('finds them in socket topics, and none in the handshake’s block and mempool', () => {
    expect(
      revealedPrincipals(socket([`address-transaction:${ALICE}`, `address-stx-balance:${ALICE}`]), WATCHED),
    ).toEqual([ALICE]);
    expect(revealedPrincipals(socket(['block', 'mempool']), WATCHED)).toEqual([]);
  });

  it('counts a contract as itself and as its deployer’s address; a token id names its deployer', () => {
    expect(revealedPrincipals(http(`${NODE}/extended/v3/principals/${VAULT}/transactions`), WATCHED)).toEqual([
      VAULT,
      CAROL,
    ]);
    expect(revealedPrincipals(http(`${NODE}/metadata/v1/ft/${encodeURIComponent(`${CAROL}.gold`)}`), WATCHED)).toEqual([
      CAROL,
    ]);
  });

  it('reads an address in any case as the node would, but never inside a longer word', () => {
    expect(revealedPrincipals(http(`${NODE}/extended/v1/address/${ALICE.toLowerCase()}/stx`), WATCHED)).toEqual([
      ALICE,
    ]);
    expect(revealedPrincipals(http(`${NODE}/x/${ALICE}0/y/Z${BOB}`), WATCHED)).toEqual([]);
    expect(revealedPrincipals(http(`${NODE}/extended/v3/principals/${CAROL}.demo-vault-2/x`), WATCHED)).toEqual([
      CAROL,
    ]);
  });

  it('reports nothing for addresses that are not watched, and survives malformed input', () => {
    expect(revealedPrincipals(http(`${NODE}/extended/v3/principals/${STRANGER}/balances/stx`), WATCHED)).toEqual([]);
    expect(revealedPrincipals(http(`${NODE}/%E0%A4%A/${ALICE}`), WATCHED)).toEqual([ALICE]);
    expect(revealedPrincipals(http('not a url'), WATCHED)).toEqual([]);
    expect(revealedPrincipals(http(`${NODE}/${ALICE}`), new Set())).toEqual([]);
  });

  it('knows a host by its origin; a socket belongs to its http(s) host', () => {
    expect(originOf('wss://api.example.com/socket.io/?EIO=4')).toBe('https://api.example.com');
    expect(originOf('ws://127.0.0.1:3999/socket.io/')).toBe('http://127.0.0.1:3999');
    expect(originOf('/stacks-watch-config.json', 'http://app.local:4173')).toBe('http://app.local:4173');
    expect(originOf('mailto:someone@example.com')).toBeNull();
  });
});

const sighting = fc.record({
  first: fc.integer({ min: 0, max: 1e12 }),
  span: fc.integer({ min: 0, max: 1e9 }),
  count: fc.integer({ min: 1, max: 1000 }),
});
const record = fc
  .record({
    contact: sighting,
    purposes: fc.subarray(['chain', 'live', 'tokens', 'names'] as const),
    addresses: fc.dictionary(fc.constantFrom(ALICE, BOB, CAROL, VAULT), sighting),
  })
  .map(({ contact, purposes, addresses }): HostRecord => ({
    origin: NODE,
    contact: { first: contact.first, last: contact.first + contact.span, count: contact.count },
    purposes,
    addresses: Object.fromEntries(
      Object.entries(addresses).map(([key, s]) => [key, { first: s.first, last: s.first + s.span, count: s.count }]),
    ),
    dropped: 0,
  }));

describe('merging records', () => {
  it('keeps the earliest first time, the latest last time, and adds the counts', () => {
    const morning = sightingRecord(NODE, 'chain', [ALICE], 1000);
    const evening = sightingRecord(NODE, 'live', [ALICE, BOB], 5000);
    const merged = mergeHostRecords(mergeHostRecords(undefined, evening), morning);
    expect(merged.contact).toEqual({ first: 1000, last: 5000, count: 2 });
    expect(merged.addresses).toEqual({
      [ALICE]: { first: 1000, last: 5000, count: 2 },
      [BOB]: { first: 5000, last: 5000, count: 1 },
    });
    expect(merged.purposes).toEqual(['chain', 'live']);
  });

  it('gives the same record whatever the order (two tabs writing in either order agree)', () => {
    fc.assert(
      fc.property(record, record, record, (a, b, c) => {
        expect(mergeHostRecords(a, b)).toEqual(mergeHostRecords(b, a));
        expect(mergeHostRecords(mergeHostRecords(a, b), c)).toEqual(mergeHostRecords(a, mergeHostRecords(b, c)));
      }),
    );
  });

  it('keeps at most the bound of addresses per host, the latest, and says how many were dropped', () => {
    const many = Array.from({ length: MAX_ADDRESSES_PER_HOST + 5 }, (_, n) =>
      c32address(26, n.toString(16).padStart(40, '0')),
    );
    const old = sightingRecord(NODE, 'chain', many.slice(0, 10), 1);
    const recent = sightingRecord(NODE, 'chain', many.slice(10), 2);
    const merged = mergeHostRecords(old, recent);
    expect(Object.keys(merged.addresses)).toHaveLength(MAX_ADDRESSES_PER_HOST);
    expect(merged.dropped).toBe(5);
    expect(many.slice(10).every((principal) => merged.addresses[principal]?.last === 2)).toBe(true);
    expect(many.slice(0, 10).filter((principal) => merged.addresses[principal])).toHaveLength(5);
  });

  it('forgets the least recently contacted hosts past the bound', () => {
    const hosts = Array.from({ length: MAX_HOSTS + 2 }, (_, n) =>
      sightingRecord(`https://h${n}.example`, 'test', [], n),
    );
    expect(hostsToForget(hosts).sort()).toEqual(['https://h0.example', 'https://h1.example']);
  });

  it('reads back what it stored, and refuses what is not a record', () => {
    const stored = mergeHostRecords(sightingRecord(NODE, 'chain', [ALICE], 10), sightingRecord(NODE, 'live', [], 20));
    expect(readHostRecord(JSON.parse(JSON.stringify(stored)))).toEqual(stored);
    expect(readHostRecord({ origin: NODE })).toBeNull();
    expect(readHostRecord('nonsense')).toBeNull();
    const damaged = { ...stored, purposes: ['chain', 'spying'], addresses: { [ALICE]: { first: 'x' } } };
    expect(readHostRecord(damaged)).toMatchObject({ purposes: ['chain'], addresses: {} });
  });
});

describe('what the screen says of a host', () => {
  const current: CurrentHosts = {
    nodes: [
      { network: 'mainnet', origin: 'https://api.mainnet.example', name: 'Hiro public API' },
      { network: 'testnet', origin: 'http://127.0.0.1:3999', name: 'Local devnet' },
    ],
    relay: 'https://relay.example',
  };
  const at = (origin: string, purposes: HostRecord['purposes']) => ({
    ...sightingRecord(origin, 'test', [], 1),
    purposes,
  });

  it('names its role from the settings in use, else from what it was asked', () => {
    expect(hostRole(at('http://127.0.0.1:3999', ['chain']), current)).toEqual({
      kind: 'node',
      networks: ['testnet'],
      name: 'Local devnet',
    });
    expect(hostRole(at('https://relay.example', ['relay']), current)).toEqual({ kind: 'relay' });
    expect(hostRole(at('https://old-relay.example', ['relay']), current)).toEqual({ kind: 'former-relay' });
    expect(hostRole(at('https://typed.example', ['test']), current)).toEqual({ kind: 'tested' });
    expect(hostRole(at('https://old-node.example', ['chain', 'live']), current)).toEqual({ kind: 'former-node' });
  });

  it('says plainly what it could learn', () => {
    const node = { kind: 'node', networks: ['testnet'], name: 'Local devnet' } as const;
    expect(whatItLearned('127.0.0.1:3999', node, 3)).toBe(
      'The node at 127.0.0.1:3999 was asked about these 3 addresses; it also sees your IP address and when the app is open.',
    );
    expect(whatItLearned('127.0.0.1:3999', node, 1)).toContain('was asked about this address;');
    expect(whatItLearned('relay.example', { kind: 'relay' }, 2)).toBe(
      'The relay at relay.example was sent these 2 addresses, with their alert rules and this browser’s push address; it also sees your IP address and when the app is open.',
    );
    expect(purposesText(['chain', 'names'])).toBe('Used for balances and activity, BNS names.');
  });
});
