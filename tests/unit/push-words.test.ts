import { describe, expect, it } from 'vitest';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import { readAlertFacts } from '../../src/domain/alerts/alert-facts-read.ts';
import { alertPath, sameOriginPath } from '../../src/domain/alerts/alert-path.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { deviceWords, NO_DEVICE_NAMES, watchedNames, type DeviceNames } from '../../src/domain/alerts/device-words.ts';
import { trustedAddresses } from '../../src/domain/address/lookalike.ts';
import { decodePushPayload, type RelayAlert } from '../../src/domain/relay/relay-message.ts';
import { sentHistoryOf } from '../../src/domain/state/sent-history.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { relayWordsOnDevice } from '../../src/app/relay-words.ts';
import type { WatchlistController, WatchlistState } from '../../src/store/watchlist-state.ts';
import LOOKALIKES from '../fixtures/lookalikes.json' with { type: 'json' };

const WALKER = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const CAROL = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const TX = `0x${'ab'.repeat(32)}`;
const ORIGIN = 'https://watch.example';

const transfer: Activity = {
  txId: TX,
  status: 'success',
  kind: 'token_transfer',
  counterparty: ALICE,
  stxNet: 4_300_000n,
  fee: 180n,
  memo: 'rent',
  contractCall: null,
  blockHeight: 10,
  time: 1_700_000_000,
  sender: ALICE,
  nonce: 3,
  movements: [
    { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: WALKER, amount: 4_300_000n },
    // Not the watched address's: the words never name it, so it never travels.
    { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: CAROL, amount: 10n },
  ],
};

const item = (change: Partial<AlertItem> = {}): AlertItem => ({
  id: `testnet:${WALKER}:${TX}`,
  network: 'testnet',
  principal: WALKER,
  subject: TX,
  phase: 'confirmed',
  activity: transfer,
  amount: null,
  at: 1_700_000_000_000,
  catchUp: false,
  ...change,
});

/** Facts as they travel: JSON text, read back. */
const travelled = (facts: unknown) => {
  const read = readAlertFacts(JSON.parse(JSON.stringify(facts)));
  if (!read.ok) throw new Error(read.error);
  return read.value;
};

const relayWords = { title: 'Received 4.30 STX', body: 'ST3TBR…7MJ7X4\nFrom alice.btc' };
const alertOf = (it: AlertItem) => ({ ...it, ...relayWords });

describe('a pushed alert in the device’s own words', () => {
  const device: DeviceNames = {
    watched: watchedNames({
      schemaVersion: 2,
      entries: [
        { principal: WALKER, network: 'testnet', label: 'Walker', addedAt: 1 },
        { principal: ALICE, network: 'testnet', label: 'Alice', addedAt: 1 },
      ],
    }),
    names: new Map(),
    tokens: new Map(),
  };

  it('reads "Walker / From Alice" where the relay wrote the address and the BNS name', () => {
    const facts = { ...alertFacts(item()), names: { [ALICE]: 'alice.btc' } };
    const words = deviceWords(alertOf(item()), travelled(facts), device);
    expect(words).toMatchObject({ title: 'Received 4.30 STX', body: 'Walker\nFrom Alice\n“rent”' });
    // Alice is watched here too: the push tells the transfer as one with Alice's side (tray-view.ts).
    expect(words.pair?.title).toBe('4.30 STX · Alice → Walker');
    expect(deviceWords(alertOf(item()), travelled(facts), NO_DEVICE_NAMES).pair).toBeUndefined();
  });

  it('tells a transfer the miners skipped by the amount it asked to move, as the device words it', () => {
    const skipped: Activity = {
      ...transfer,
      status: 'failed',
      statusDetail: 'problematic_skipped',
      stxNet: 0n,
      movements: [],
      transferAmount: 4_300_000n,
    };
    const failed = item({ phase: 'failed', activity: skipped });
    const words = deviceWords(alertOf(failed), travelled(alertFacts(failed)), device);
    expect(words.pair?.title).toBe('Skipped as problematic: 4.30 STX · Alice → Walker');
  });

  it('falls back on the BNS names the relay knows, then on the short address, for a device with no labels', () => {
    const facts = { ...alertFacts(item()), names: { [ALICE]: 'alice.btc' } };
    expect(deviceWords(alertOf(item()), travelled(facts), NO_DEVICE_NAMES).body).toBe(
      'ST3TBR…J7X4\nFrom alice.btc\n“rent”',
    );
  });

  it('carries only the watched address’s own movements, amounts as strings', () => {
    const facts = alertFacts(item());
    expect(facts.activity?.movements).toEqual([
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: ALICE, recipient: WALKER, amount: '4300000' },
    ]);
    expect(JSON.stringify(facts)).not.toContain(CAROL);
  });

  it('words a locking from its amount, and a re-org follow-up from what this device told before', () => {
    const locked = item({ subject: 'lock:5', phase: 'locked', activity: null, amount: 2_000_000n });
    expect(deviceWords(alertOf(locked), travelled(alertFacts(locked)), device).title).toBe(
      '2.00 STX locked for stacking',
    );
    const reverted = item({ phase: 'reverted', activity: null, recalled: relayWords });
    const told = { title: 'Received 4.30 STX', body: 'Walker\nFrom Alice' };
    expect(deviceWords(alertOf(reverted), travelled(alertFacts(reverted)), device, told)).toEqual({
      title: 'Reverted: Received 4.30 STX',
      body: 'Walker\nFrom Alice\nA chain re-organisation removed this transaction from its block.',
    });
  });

  it.each([
    [{ recalled: 'yes' }, /facts.recalled must be true or false/],
    [
      { activity: { ...alertFacts(item()).activity, stxNet: 4.3 } },
      /facts.activity.stxNet must be a decimal integer string/,
    ],
    [
      { activity: { ...alertFacts(item()).activity, counterparty: 'javascript:alert(1)' } },
      /counterparty must be a Stacks principal/,
    ],
    [{ tokens: { [ALICE]: { name: 'x', symbol: 'X', decimals: 400 } } }, /decimals must be at most 38/],
  ])('refuses facts that do not read, naming the field (%#)', (change, message) => {
    const read = readAlertFacts({ ...alertFacts(item()), ...change });
    expect(read.ok ? '' : read.error).toMatch(message);
  });
});

describe('where an alert opens', () => {
  it('is built from the network, principal and transaction id', () => {
    expect(alertPath({ network: 'testnet', principal: WALKER, txId: TX })).toBe(`/address/${WALKER}#tx-${TX}`);
    expect(alertPath({ network: 'testnet', principal: WALKER, txId: null })).toBe(`/address/${WALKER}`);
    expect(alertPath({ network: 'mainnet', principal: WALKER, txId: TX })).toBe('/inbox');
    expect(alertPath({ network: 'testnet', principal: '/\\evil.example', txId: TX })).toBe('/inbox');
    expect(alertPath({ network: 'testnet', principal: WALKER, txId: '/\\evil.example' })).toBe(`/address/${WALKER}`);
  });

  it.each([
    '/\\evil.example/login',
    '//evil.example/login',
    '/\\/evil.example',
    'https://evil.example/',
    '\\\\evil.example',
    ' /x',
    'javascript:alert(1)',
  ])('never leaves the app’s origin for %j', (path) => expect(sameOriginPath(path, ORIGIN)).toBeNull());

  it('keeps the app’s own paths', () => {
    expect(sameOriginPath(`/address/${WALKER}#tx-${TX}`, ORIGIN)).toBe(`/address/${WALKER}#tx-${TX}`);
    expect(sameOriginPath('/inbox', ORIGIN)).toBe('/inbox');
  });

  it('reads a declarative push: its words are the notification’s, its path the one built on the device', () => {
    const facts = alertFacts(item());
    const message = {
      web_push: 8030,
      notification: {
        title: 'Received 4.30 STX',
        body: 'ST3TBR…7MJ7X4',
        navigate: 'https://evil.example/',
        data: {
          v: 2,
          alert: {
            cursor: '9',
            id: item().id,
            network: 'testnet',
            principal: WALKER,
            txId: TX,
            phase: 'confirmed',
            at: 5,
            path: '/\\evil.example/login',
            facts,
          },
        },
      },
      mutable: true,
    };
    const read = decodePushPayload(message);
    expect(read).toMatchObject({
      ok: true,
      value: [{ title: 'Received 4.30 STX', body: 'ST3TBR…7MJ7X4', path: `/address/${WALKER}#tx-${TX}`, facts }],
    });
    expect(decodePushPayload({ ...message, notification: { ...message.notification, data: { v: 7 } } })).toMatchObject({
      ok: false,
      error: expect.stringMatching(/not this app’s \(version 2\)/),
    });
  });
});

describe('a pushed alert from a lookalike sender (address poisoning)', () => {
  // Same first 6 and last 4 characters as Walker, a different address (tests/fixtures/lookalikes.json).
  const POISONER = LOOKALIKES.unit[WALKER].address;
  const DAVE = 'ST13XA5XQZVR6V9MY6NVPHFPWXGAM2DK6D776XPAB';
  const dust = (sender: string): AlertItem =>
    item({
      principal: ALICE,
      id: `testnet:${ALICE}:${TX}`,
      activity: {
        ...transfer,
        counterparty: sender,
        stxNet: 1n,
        memo: null,
        sender,
        movements: [{ type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender, recipient: ALICE, amount: 1n }],
      },
    });
  const words = (it: AlertItem, device: DeviceNames) =>
    deviceWords({ ...it, title: 'Received 0.000001 STX', body: 'ST2CY5…K9AG' }, travelled(alertFacts(it)), device);
  const watching = (extra: Partial<DeviceNames> = {}): DeviceNames => ({
    watched: watchedNames({
      schemaVersion: 2,
      entries: [
        { principal: WALKER, network: 'testnet', label: 'Walker', addedAt: 1 },
        { principal: ALICE, network: 'testnet', label: 'Alice', addedAt: 1 },
      ],
    }),
    names: new Map(),
    tokens: new Map(),
    ...extra,
  });

  it('is told as a possible address-poisoning naming the watched address it imitates, never as "Received"', () => {
    const told = words(dust(POISONER), watching());
    expect(told.title).toBe(`Possible address-poisoning: ST3TBR…J7X4 looks like Walker`);
    expect(told.body).toContain(`Sent by ${POISONER}, not ${WALKER}`);
    expect(told.title).not.toMatch(/Received/);
  });

  it('also from a lookalike of an address a watched one sent to, read from its stored snapshot', () => {
    const carolLookalike = `${CAROL.slice(0, 6)}${'0'.repeat(CAROL.length - 10)}${CAROL.slice(-4)}`;
    // What the page stores for Walker: it sent Carol something once.
    const stored = {
      version: 1,
      snapshot: {
        principal: WALKER,
        recent: [
          {
            ...transfer,
            sender: WALKER,
            counterparty: CAROL,
            stxNet: -5n,
            movements: [{ type: 'stx', sender: WALKER, recipient: CAROL, amount: 5n }],
          },
          'not an activity',
        ],
      },
    };
    const history = sentHistoryOf(stored, WALKER);
    const trusted = trustedAddresses([WALKER, ALICE], [history, sentHistoryOf(undefined, ALICE)]);
    expect(trusted.has(CAROL)).toBe(true);
    expect(words(dust(carolLookalike), watching({ trusted })).title).toBe(
      'Possible address-poisoning: ST1PQH…GZGM looks like ST1PQH…GZGM',
    );
    // Without the stored history only the watched addresses are trusted: Carol's lookalike reads as received.
    expect(words(dust(carolLookalike), watching()).title).toBe('Received 0.000001 STX');
  });

  it('an honest sender is told as received', () => {
    expect(words(dust(DAVE), watching()).title).toBe('Received 0.000001 STX');
  });

  it('reads a stored snapshot leniently: one that does not read, or is another address’s, gives nothing', () => {
    expect(sentHistoryOf(null, WALKER)).toBeUndefined();
    expect(sentHistoryOf({ snapshot: { principal: ALICE, recent: [] } }, WALKER)).toBeUndefined();
    expect(sentHistoryOf({ snapshot: { principal: WALKER, recent: 'x' } }, WALKER)).toBeUndefined();
    expect(
      sentHistoryOf({ snapshot: { principal: WALKER, recent: [{ ...transfer, status: 'failed' }, 7] } }, WALKER),
    ).toEqual({ principal: WALKER, recent: [] });
  });
});

describe('relay alerts read from the feed (the catch-up) in the device’s words', () => {
  const POISONER = LOOKALIKES.unit[WALKER].address;
  it('carry the address-poisoning warning too', () => {
    const state: WatchlistState = {
      status: 'ready',
      entries: [
        { principal: WALKER, network: 'testnet', label: 'Walker', addedAt: 1 },
        { principal: ALICE, network: 'testnet', label: 'Alice', addedAt: 1 },
      ],
    } as unknown as WatchlistState;
    const words = relayWordsOnDevice({
      watchlist: { getState: () => state } as unknown as WatchlistController,
      names: new Map(),
      tokens: new Map(),
      snapshots: new Map(),
    });
    const dust = item({
      principal: ALICE,
      id: `testnet:${ALICE}:${TX}`,
      activity: {
        ...transfer,
        counterparty: POISONER,
        stxNet: 1n,
        memo: null,
        sender: POISONER,
        movements: [
          { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: POISONER, recipient: ALICE, amount: 1n },
        ],
      },
    });
    const alert = {
      cursor: '1',
      id: dust.id,
      network: 'testnet' as const,
      principal: ALICE,
      txId: TX,
      phase: 'confirmed' as const,
      title: 'Received 0.000001 STX',
      body: 'ST2CY5…K9AG',
      path: '/inbox',
      at: 1,
      facts: JSON.parse(JSON.stringify(alertFacts(dust))) as RelayAlert['facts'],
    };
    expect(words(alert, undefined).title).toBe('Possible address-poisoning: ST3TBR…J7X4 looks like Walker');
  });
});
