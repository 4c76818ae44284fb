import { c32address } from 'c32check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { emptySnapshot } from '../../src/domain/state/snapshot.ts';
import { readInboxRecord, readSnapshotRecord } from '../../src/domain/record-shapes.ts';
import { DEFAULT_RELAY_SETTINGS, readRelaySettings } from '../../src/store/relay-settings-schema.ts';
import { DEFAULT_ALERT_SETTINGS, readAlertSettings, readNodeSettings } from '../../src/store/settings-schema.ts';
import { upgradeWatchlistRecord } from '../../src/store/watchlist-schema.ts';

const MAINNET = c32address(22, '33'.repeat(20));
const ID = 'A'.repeat(22);
const SECRET = 'B'.repeat(43);

describe('stored settings, read field by field', () => {
  it('a whole record reads with no damage', () => {
    const alerts = {
      version: 1,
      whileOpen: 'system',
      rules: { [`mainnet:${MAINNET}`]: { ...DEFAULT_RULES, muted: true } },
    };
    expect(readAlertSettings(alerts)).toEqual({
      value: { whileOpen: 'system', rules: { [`mainnet:${MAINNET}`]: { ...DEFAULT_RULES, muted: true } } },
      damage: null,
    });
    const relay = {
      version: 1,
      enabled: true,
      url: 'https://relay.example.com',
      identity: { id: ID, secret: SECRET },
      cursor: '4',
    };
    expect(readRelaySettings(relay)).toEqual({
      value: { enabled: true, url: 'https://relay.example.com', identity: { id: ID, secret: SECRET }, cursor: '4' },
      damage: null,
    });
    expect(
      readNodeSettings({ version: 1, nodes: { testnet: { url: 'http://127.0.0.1:3999', apiKey: null } } }),
    ).toEqual({
      value: { testnet: { url: 'http://127.0.0.1:3999', apiKey: null } },
      damage: null,
    });
  });

  it('keeps what reads, takes the default for the rest, and names what did not read', () => {
    const alerts = readAlertSettings({
      version: 1,
      whileOpen: 42,
      rules: { [`mainnet:${MAINNET}`]: { muted: 'yes', incoming: false, minimums: { STX: 5 } } },
    });
    expect(alerts.value.whileOpen).toBe('toast');
    expect(alerts.value.rules[`mainnet:${MAINNET}`]).toMatchObject({ muted: false, incoming: false, minimums: {} });
    expect(alerts.damage).toBe(
      `how alerts show while the app is open and the rules of ${MAINNET.slice(0, 6)}…${MAINNET.slice(-4)} could not be read`,
    );
    expect(
      readNodeSettings({ version: 1, nodes: { mainnet: { url: 'ftp://x' }, moon: { url: 'https://x.io' } } }),
    ).toEqual({
      value: {},
      damage: 'the node for mainnet and the node for moon could not be read',
    });
    expect(
      readRelaySettings({ version: 1, enabled: true, url: 'http://relay.example.com', identity: { id: 'short' } }),
    ).toEqual({
      value: DEFAULT_RELAY_SETTINGS,
      damage: 'the relay’s address and this device’s identity could not be read',
    });
  });

  it.each([
    [null, 'not a record'],
    ['{"version":1,"whi', 'not a record'],
    [[1, 2], 'not a record'],
    [{ whileOpen: 'system' }, 'no version this app knows'],
    [{ version: 2, whileOpen: 'system' }, 'written by a newer version of the app (version 2)'],
  ])('%j is not read at all: %s', (raw, damage) => {
    expect(readAlertSettings(raw)).toEqual({ value: DEFAULT_ALERT_SETTINGS, damage });
    expect(readRelaySettings(raw)).toEqual({ value: DEFAULT_RELAY_SETTINGS, damage });
    expect(readNodeSettings(raw)).toEqual({ value: {}, damage });
  });
});

describe('stored inbox entries and snapshots', () => {
  const entry = {
    id: 'mainnet:SP:0x1',
    network: 'mainnet',
    principal: MAINNET,
    txId: '0x1',
    phase: 'confirmed',
    title: 'Received 1 STX',
    body: 'from SP…',
    path: `/address/${MAINNET}`,
    firstAt: 1,
    at: 2,
    read: false,
    deliveries: [{ phase: 'confirmed', via: 'toast', at: 2 }],
    undelivered: false,
  };

  it('an inbox entry reads when its shape is whole (an older one without `undelivered` too)', () => {
    expect(readInboxRecord(entry, entry.id)).toEqual({ ok: true, value: entry });
    const older: Partial<typeof entry> = { ...entry };
    delete older.undelivered;
    expect(readInboxRecord(older, entry.id).ok).toBe(true);
    const pair = { key: 'mainnet:0x1', from: 'SPA', to: MAINNET, title: 'Alice → Bob 1 STX', body: '', sides: {} };
    expect(readInboxRecord({ ...entry, pair }, entry.id).ok).toBe(true);
  });

  it.each([
    ['stored under another key', { ...entry, id: 'other' }, 'stored under another alert’s key'],
    ['a title that is not text', { ...entry, title: 7 }, 'its title is not text'],
    ['a truncated record', { id: entry.id, network: 'mainnet' }, 'its principal is not text'],
    ['a time that is not a time', { ...entry, at: '2' }, 'its time is not a time'],
    ['deliveries that are not a list', { ...entry, deliveries: {} }, 'how it was shown is not a list'],
    [
      'a pair without its sender',
      { ...entry, pair: { key: 'k', to: 't', title: '', body: '', sides: {} } },
      'the transfer it is a side of does not read',
    ],
    ['not a record', 'garbage', 'not a record'],
  ])('an inbox entry with %s is named', (_, raw, reason) => {
    expect(readInboxRecord(raw, entry.id)).toEqual({ ok: false, error: reason });
  });

  const snapshot = {
    ...emptySnapshot(MAINNET, 'mainnet'),
    stx: { total: 10n, available: 10n, locked: 0n, unlockBurnHeight: null },
    recent: [{ txId: '0x1', status: 'success', stxNet: 10n, fee: 0n, time: 1 }],
    holdings: { tokens: new Map(), nfts: new Map() },
    syncedAt: 5,
  };

  it('a snapshot reads when whole; one of another version is left to the next sync without a word', () => {
    expect(readSnapshotRecord({ version: 1, snapshot }, MAINNET)).toEqual({ ok: true, value: snapshot });
    const older: Partial<typeof snapshot> = { ...snapshot };
    delete older.holdings;
    delete older.syncedHeight;
    expect(readSnapshotRecord({ version: 1, snapshot: older }, MAINNET).ok).toBe(true);
    expect(readSnapshotRecord({ version: 2, snapshot: 'new' }, MAINNET)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    [
      'a balance as a string',
      { ...snapshot, stx: { ...snapshot.stx, total: '10' } },
      'the STX balance is not an amount',
    ],
    ['activity without amounts', { ...snapshot, recent: [{ txId: '0x1' }] }, 'its activity does not read'],
    ['no pending list', { ...snapshot, pending: undefined }, 'its activity does not read'],
    ['holdings that lost their maps', { ...snapshot, holdings: { tokens: {}, nfts: {} } }, 'its tokens do not read'],
    ['another address', { ...snapshot, principal: 'SP000' }, 'stored under another address'],
  ])('a snapshot with %s is named', (_, damaged, reason) => {
    expect(readSnapshotRecord({ version: 1, snapshot: damaged }, MAINNET)).toEqual({ ok: false, error: reason });
  });
});

describe('a damaged watch list record', () => {
  it('keeps the entries that read and names the others', () => {
    const raw = {
      schemaVersion: 2,
      entries: [{ principal: MAINNET, label: 'Kept' }, { principal: 42 }, { principal: MAINNET.slice(0, 12) }],
    };
    const upgraded = upgradeWatchlistRecord(raw, 0);
    expect(upgraded.ok && upgraded.value.entries.map((entry) => entry.label)).toEqual(['Kept']);
    expect(upgraded.ok && upgraded.value.dropped).toEqual([
      'the “principal” is missing or not text',
      expect.stringContaining(`“${MAINNET.slice(0, 12)}”`),
    ]);
  });

  it.each([
    ['{"schemaVersion":2,"entries":[{"princ', 'it is not a record'],
    [{ entries: [] }, 'it has no schema version'],
    [{ schemaVersion: 2, entries: { 0: MAINNET } }, 'its entries are not a list'],
  ])('%j does not read at all: %s', (raw, reason) => {
    expect(upgradeWatchlistRecord(raw, 0)).toEqual({ ok: false, error: { kind: 'unreadable', reason } });
  });
});
