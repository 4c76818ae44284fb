import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { entryState, type InboxEntry } from '../../src/domain/alerts/inbox.ts';
import {
  holdsState,
  isStale,
  pushTellsNothing,
  stateShown,
  withRelayAlert,
  withShown,
} from '../../src/domain/relay/relay-inbox.ts';
import {
  base64url,
  deviceRegistration,
  readSubscription,
  relayWatches,
  toWireRules,
  vapidKeyBytes,
} from '../../src/domain/relay/relay-device.ts';
import {
  decodeAlertsPage,
  decodePushPayload,
  decodeRelayAlert,
  type RelayAlert,
} from '../../src/domain/relay/relay-message.ts';
import { checkRelayUrl } from '../../src/domain/relay/relay-url.ts';

const PRINCIPAL = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const TX = `0x${'ab'.repeat(32)}`;
const ALERT: RelayAlert = {
  cursor: '17',
  id: `testnet:${PRINCIPAL}:${TX}`,
  network: 'testnet',
  principal: PRINCIPAL,
  txId: TX,
  phase: 'confirmed',
  title: 'Received 5 STX',
  body: 'ST1PQ…PGZGM',
  path: `/address/${PRINCIPAL}#tx-${TX}`,
  at: 1_700_000_000_000,
};

const errorOf = (result: { ok: boolean; error?: string }): string => (result.ok ? '' : String(result.error));

describe('relay messages', () => {
  it('read a well-formed push payload and alerts page', () => {
    expect(decodePushPayload({ v: 1, alert: ALERT })).toEqual({ ok: true, value: [ALERT] });
    expect(decodeAlertsPage({ alerts: [ALERT], next: '17', more: false })).toEqual({
      ok: true,
      value: { alerts: [ALERT], next: '17', more: false, missed: [] },
    });
  });

  it('read the addresses a catch-up missed (its cursor older than the relay keeps), or refuse a malformed gap', () => {
    const gap = { principals: [{ network: 'testnet', principal: PRINCIPAL }] };
    expect(decodeAlertsPage({ alerts: [], next: '700', more: false, gap })).toEqual({
      ok: true,
      value: { alerts: [], next: '700', more: false, missed: [{ network: 'testnet', principal: PRINCIPAL }] },
    });
    expect(errorOf(decodeAlertsPage({ alerts: [], next: '1', more: false, gap: [PRINCIPAL] }))).toMatch(
      /“gap” must be \{ principals/,
    );
    const wrong = { principals: [{ network: 'devnet', principal: PRINCIPAL }] };
    expect(errorOf(decodeAlertsPage({ alerts: [], next: '1', more: false, gap: wrong }))).toMatch(
      /gap address 1 must be \{ network: "mainnet" \| "testnet"/,
    );
  });

  it.each([
    [{ ...ALERT, network: 'devnet' }, /“network” must be "mainnet" or "testnet"/],
    [{ ...ALERT, principal: 'st1pq' }, /“principal” must be a Stacks address/],
    [{ ...ALERT, id: `mainnet:${PRINCIPAL}:${TX}` }, /“id” must be "<network>:<principal>:<subject>"/],
    [{ ...ALERT, id: `testnet:${PRINCIPAL}:` }, /“id” must be/],
    [{ ...ALERT, txId: 'abc' }, /“txId” must be null or a transaction id/],
    [{ ...ALERT, phase: 'mined' }, /“phase” must be one of pending, confirmed/],
    [{ ...ALERT, title: 5 }, /“title” must be a string/],
    [{ ...ALERT, body: 'x'.repeat(2001) }, /“body” is longer than 2000 characters/],
    [{ ...ALERT, at: -1 }, /“at” must be a time in epoch milliseconds/],
    [{ ...ALERT, cursor: '' }, /“cursor” must be a string/],
    [[ALERT], /not a JSON object/],
  ])('refuse a malformed alert %# with the field and what is expected', (alert, message) => {
    expect(errorOf(decodeRelayAlert(alert))).toMatch(message);
  });

  it.each(['//evil.example/', 'https://evil.example/', '/\\evil.example/login', '/\\/evil.example', ''])(
    'never keep the relay’s path %j: the alert opens the path built from its network, principal and transaction',
    (path) => {
      expect(decodeRelayAlert({ ...ALERT, path })).toEqual({ ok: true, value: ALERT });
      const withoutPath: Record<string, unknown> = { ...ALERT };
      delete withoutPath['path'];
      expect(decodeRelayAlert(withoutPath)).toEqual({ ok: true, value: ALERT });
    },
  );

  describe('a push of several sides of one transaction (a transfer between two watched addresses)', () => {
    const OTHER = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
    const SIDE: RelayAlert = {
      ...ALERT,
      cursor: '18',
      id: `testnet:${OTHER}:${TX}`,
      principal: OTHER,
      title: 'Sent 5 STX',
      path: `/address/${OTHER}#tx-${TX}`,
    };

    it('reads every side, in order, in both shapes; a push of one side reads as before', () => {
      expect(decodePushPayload({ v: 1, alert: ALERT, otherSides: [SIDE] })).toEqual({ ok: true, value: [ALERT, SIDE] });
      const { title, body, ...withPath } = ALERT;
      const data: Record<string, unknown> = { ...withPath };
      delete data['path'];
      const declarative = {
        web_push: 8030,
        notification: {
          title: 'Walker → Alice 5 STX',
          body: 'Fee 0.0003 STX',
          navigate: 'https://watch.example/',
          data: { v: 2, alert: { ...data, title, body }, otherSides: [SIDE] },
        },
        mutable: true,
      };
      // Each side keeps its own words; the notification's are the transaction's.
      expect(decodePushPayload(declarative)).toEqual({ ok: true, value: [ALERT, SIDE] });
      const single = { web_push: 8030, notification: { title, body, data: { v: 2, alert: data } } };
      expect(decodePushPayload(single)).toEqual({ ok: true, value: [ALERT] });
    });

    it.each([
      [{ otherSides: SIDE }, /“otherSides” must be an array of 1 to 15 alerts, or left out/],
      [{ otherSides: [] }, /“otherSides” must be an array of 1 to 15/],
      [{ otherSides: Array.from({ length: 16 }, () => SIDE) }, /“otherSides” must be an array of 1 to 15/],
      [{ otherSides: [{ ...SIDE, at: 'now' }] }, /side 2 of the push is malformed: “at” must be a time/],
      [{ otherSides: [SIDE, 'x'] }, /side 3 of the push is malformed: the alert is not a JSON object/],
      [
        { otherSides: [{ ...SIDE, phase: 'pending' }] },
        /side 2 of the push must tell the first alert’s transaction in its state \(testnet 0xab.* confirmed\), not testnet 0xab.* pending/,
      ],
      [
        { otherSides: [{ ...SIDE, txId: `0x${'cd'.repeat(32)}` }] },
        /side 2 of the push must tell the first alert’s transaction/,
      ],
      [
        { otherSides: [{ ...SIDE, network: 'mainnet', id: `mainnet:${OTHER}:${TX}` }] },
        /must tell the first alert’s transaction/,
      ],
      [{ otherSides: [SIDE, SIDE] }, /side 3 of the push repeats alert testnet:ST2CY/],
      [{ otherSides: [ALERT] }, /side 2 of the push repeats alert/],
      [
        { alert: { ...ALERT, txId: null }, otherSides: [SIDE] },
        /must tell a transaction, but its alert’s “txId” is null/,
      ],
    ])('refuse malformed sides %# with what is wrong and what is expected', (given, message) => {
      expect(errorOf(decodePushPayload({ v: 1, alert: ALERT, ...given }))).toMatch(message);
    });
  });

  it('refuse other push versions and malformed pages', () => {
    expect(errorOf(decodePushPayload({ v: 2, alert: ALERT }))).toMatch(/version 2; this app reads version 1/);
    expect(errorOf(decodePushPayload({ v: 1, alert: { ...ALERT, phase: 'x' } }))).toMatch(
      /push message’s alert is malformed: “phase”/,
    );
    expect(errorOf(decodePushPayload('hello'))).toMatch(/not a JSON object/);
    expect(errorOf(decodeAlertsPage({ alerts: {}, next: '1', more: false }))).toMatch(/“alerts” must be an array/);
    expect(errorOf(decodeAlertsPage({ alerts: [], next: 1, more: false }))).toMatch(/“next” must be a cursor/);
    expect(errorOf(decodeAlertsPage({ alerts: [], next: '1', more: 'no' }))).toMatch(/“more” must be true or false/);
    expect(errorOf(decodeAlertsPage({ alerts: [ALERT, { ...ALERT, at: 'now' }], next: '1', more: false }))).toMatch(
      /alert 2: “at”/,
    );
  });
});

describe('relay URL', () => {
  it('accepts https anywhere and http on loopback, normalised', () => {
    expect(checkRelayUrl(' https://relay.example.com/ ')).toEqual({ ok: true, value: 'https://relay.example.com' });
    expect(checkRelayUrl('http://127.0.0.1:3990')).toEqual({ ok: true, value: 'http://127.0.0.1:3990' });
    expect(checkRelayUrl('http://localhost:3990/relay/')).toEqual({ ok: true, value: 'http://localhost:3990/relay' });
    expect(checkRelayUrl('http://[::1]:3990')).toEqual({ ok: true, value: 'http://[::1]:3990' });
  });

  it.each([
    ['', /Enter the relay’s address/],
    ['relay.example.com', /not a web address/],
    ['ftp://relay.example.com', /over https, not ftp/],
    ['http://relay.example.com', /Plain http is only allowed for a relay on this device/],
    ['http://192.168.1.5:3990', /Plain http is only allowed/],
    ['http://127.0.0.1.example.com', /Plain http is only allowed/],
    ['https://user:pw@relay.example.com', /Leave the user name and password out/],
    ['https://relay.example.com/?a=1', /Leave the query/],
  ])('refuses %j with a reason', (input, message) => {
    expect(errorOf(checkRelayUrl(input))).toMatch(message);
  });
});

describe('relay device', () => {
  it('sends each watch with its rules, minimums as decimal strings, and nothing else', () => {
    const rules = { ...DEFAULT_RULES, pending: false, minimums: { STX: 2n ** 70n } };
    const watches = relayWatches([{ network: 'testnet', principal: PRINCIPAL, label: 'Cold' } as never], () => rules);
    expect(watches).toEqual({
      ok: true,
      value: [
        { network: 'testnet', principal: PRINCIPAL, rules: { ...rules, minimums: { STX: (2n ** 70n).toString() } } },
      ],
    });
    expect(JSON.stringify(watches)).not.toContain('Cold');
    const many = Array.from({ length: 1001 }, () => ({ network: 'testnet' as const, principal: PRINCIPAL }));
    expect(errorOf(relayWatches(many, () => DEFAULT_RULES))).toMatch(/at most 1,000 addresses/);
  });

  it('checks the request it built against the wire contract the relay reads it with, naming the field', () => {
    const subscription = {
      endpoint: 'https://fcm.googleapis.com/fcm/send/x',
      expirationTime: null,
      keys: {
        p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
        auth: 'tBHItJI5svbpez7KI4CCXg',
      },
    };
    const rules = toWireRules(DEFAULT_RULES);
    expect(deviceRegistration(subscription, [{ network: 'testnet', principal: PRINCIPAL, rules }])).toMatchObject({
      ok: true,
    });
    const mainnet = 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7';
    expect(
      errorOf(
        deviceRegistration(subscription, [
          { network: 'testnet', principal: PRINCIPAL, rules },
          { network: 'testnet', principal: mainnet, rules },
        ]),
      ),
    ).toBe('watches/1/principal: not a testnet address (ST or SN): it is a mainnet one');
  });

  it('reads push subscriptions and VAPID keys, refusing what the relay would refuse', () => {
    const keys = {
      p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
      auth: 'tBHItJI5svbpez7KI4CCXg',
    };
    expect(readSubscription({ endpoint: 'https://push.example/1', keys })).toEqual({
      ok: true,
      value: { endpoint: 'https://push.example/1', expirationTime: null, keys },
    });
    expect(errorOf(readSubscription({ endpoint: 'ftp://x', keys }))).toMatch(
      /^subscription\/endpoint: expected the push service URL/,
    );
    expect(errorOf(readSubscription({ endpoint: 'https://x', keys: {} }))).toMatch(
      /^subscription\/keys\/p256dh: is missing; expected the subscription's base64url P-256 public key/,
    );
    expect(errorOf(readSubscription({ endpoint: 'https://x', keys: { ...keys, auth: 'a_b-' } }))).toMatch(
      /^subscription\/keys\/auth: expected the subscription's base64url 16-byte auth secret/,
    );
    const point = new Uint8Array(65).fill(7);
    point[0] = 4;
    const key = base64url(point);
    expect(key).toMatch(/^[A-Za-z0-9_-]{87}$/);
    expect(vapidKeyBytes(key)).toEqual({ ok: true, value: point });
    expect(errorOf(vapidKeyBytes(base64url(new Uint8Array(33))))).toMatch(/not an uncompressed P-256 public key/);
    expect(errorOf(vapidKeyBytes('not base64!'))).toMatch(/not base64url/);
    expect(errorOf(vapidKeyBytes('A'))).toMatch(/not valid base64url/);
  });
});

describe('relay alerts in the inbox', () => {
  const entry: InboxEntry = {
    ...ALERT,
    title: 'Received 5 STX',
    body: 'Cold wallet',
    firstAt: 1,
    at: 2,
    read: true,
    deliveries: [{ phase: 'pending', via: 'toast', at: 1 }],
    undelivered: false,
    phase: 'pending',
  };

  it('a new state replaces the words, keeps the deliveries and is unread again', () => {
    const next = withRelayAlert(entry, ALERT);
    expect(next).toMatchObject({ phase: 'confirmed', title: ALERT.title, body: ALERT.body, read: false, firstAt: 1 });
    expect(next.deliveries).toEqual(entry.deliveries);
    expect(stateShown(next, 'pending')).toBe(true);
    expect(stateShown(next, 'confirmed')).toBe(false);
    const shown = withShown(next, 'notification', 9);
    expect(stateShown(shown, 'confirmed')).toBe(true);
    expect(withShown(shown, 'notification', 10)).toBe(shown);
  });

  it('a failure with another outcome is news: skipped as problematic, then refused by the contract on a new fork', () => {
    const facts = (statusDetail: string): NonNullable<RelayAlert['facts']> => ({
      subject: TX,
      activity: {
        txId: TX,
        status: 'failed',
        statusDetail,
        kind: 'contract_call',
        counterparty: null,
        stxNet: '0',
        fee: '2000',
        memo: null,
        contractCall: { contractId: 'ST000000000000000000002AMW42H.pox-5', functionName: 'stake' },
        blockHeight: 36,
        time: 1_700_000_000,
      },
      amount: null,
      recalled: false,
    });
    const skipped: InboxEntry = {
      ...entry,
      phase: 'failed',
      title: 'Stake skipped as problematic',
      facts: facts('problematic_skipped'),
      deliveries: [{ phase: 'failed', via: 'notification', at: 3 }],
    };
    const refused = { ...ALERT, phase: 'failed' as const, title: 'Stake failed', facts: facts('abort_by_response') };
    expect(holdsState(skipped, refused)).toBe(false);
    expect(isStale(skipped, refused)).toBe(false);
    expect(withRelayAlert(skipped, refused)).toMatchObject({ phase: 'failed', title: 'Stake failed', read: false });
    // The same outcome pushed again is no news; one told before its status word was kept compares by phase.
    const again = { ...refused, facts: facts('problematic_skipped') };
    expect(holdsState(skipped, again)).toBe(true);
    expect(isStale(skipped, again)).toBe(true);
    expect(withRelayAlert(skipped, again).title).toBe('Stake skipped as problematic');
    expect(holdsState({ ...skipped, facts: undefined }, refused)).toBe(true);
    // A push of it is news over the skip shown, and recorded told the way the skip was, as delivered.
    expect(pushTellsNothing(skipped, refused)).toBe(false);
    expect(pushTellsNothing(skipped, again)).toBe(true);
    const told = withShown({ ...withRelayAlert(skipped, refused), undelivered: true }, 'notification', 4);
    expect(told.undelivered).toBe(false);
    expect(told.deliveries).toEqual(skipped.deliveries);
  });

  it('a push of a state shown before never takes back what the entry moved on to', () => {
    // The open app showed it confirmed, then stored the revert, not yet recorded as told: the relay's late confirmed
    // push tells nothing.
    const reverted: InboxEntry = {
      ...entry,
      phase: 'reverted',
      undelivered: true,
      deliveries: [{ phase: 'confirmed', via: 'notification', at: 3 }],
    };
    expect(pushTellsNothing(reverted, ALERT)).toBe(true);
    expect(pushTellsNothing({ ...reverted, phase: 'confirmed' }, ALERT)).toBe(true);
    expect(pushTellsNothing({ ...reverted, deliveries: [] }, ALERT)).toBe(false);
    // A late pending after the app saw it mined tells nothing either.
    expect(pushTellsNothing({ ...entry, phase: 'confirmed', deliveries: [] }, { ...ALERT, phase: 'pending' })).toBe(
      true,
    );
  });

  it('an entry names its outcome from the facts of a failure only', () => {
    const pending = {
      subject: TX,
      activity: { txId: TX, status: 'pending', statusDetail: 'pending' },
      amount: null,
      recalled: false,
    } as unknown as NonNullable<InboxEntry['facts']>;
    // A push without facts keeps the entry's earlier ones: they say nothing of how it failed.
    expect(entryState({ phase: 'failed', facts: pending })).toEqual({ phase: 'failed', detail: undefined });
    expect(entryState({ phase: 'pending', facts: pending })).toEqual({ phase: 'pending', detail: undefined });
    expect(entryState(undefined)).toBeUndefined();
  });

  it('the same state keeps the app’s own words (with the label the relay never learns)', () => {
    const same = { ...entry, phase: 'confirmed' as const };
    expect(withRelayAlert(same, ALERT)).toMatchObject({ body: 'Cold wallet', read: true, at: 2 });
    expect(isStale(same, ALERT)).toBe(true);
    expect(isStale({ ...entry, phase: 'confirmed' }, { ...ALERT, phase: 'pending' })).toBe(true);
    expect(isStale(entry, ALERT)).toBe(false);
    expect(isStale(undefined, ALERT)).toBe(false);
    expect(stateShown(undefined, 'confirmed')).toBe(false);
    expect(stateShown({ ...entry, deliveries: [{ phase: 'pending', via: 'inbox', at: 1 }] }, 'pending')).toBe(false);
    // Confirmed, reverted by a re-org, confirmed again on the new fork: the second confirmation is news.
    const refork = [
      { phase: 'confirmed' as const, via: 'notification' as const, at: 1 },
      { phase: 'reverted' as const, via: 'notification' as const, at: 2 },
    ];
    expect(stateShown({ ...entry, deliveries: refork }, 'confirmed')).toBe(false);
    expect(
      stateShown({ ...entry, deliveries: [...refork.slice(0, 1), { ...refork[0]!, via: 'inbox' }] }, 'confirmed'),
    ).toBe(true);
  });

  it('a quiet state (a stake call its staking alert tells) is read as quiet and arrives read', () => {
    const quiet = decodeRelayAlert({ ...ALERT, quiet: true });
    expect(quiet).toEqual({ ok: true, value: { ...ALERT, quiet: true } });
    // Anything but true is no mark at all.
    expect(decodeRelayAlert({ ...ALERT, quiet: 'yes' })).toEqual({ ok: true, value: ALERT });
    expect(withRelayAlert(undefined, { ...ALERT, quiet: true })).toMatchObject({ read: true, quiet: true });
    expect(withRelayAlert(entry, { ...ALERT, quiet: true })).toMatchObject({ phase: 'confirmed', read: true });
    expect(withRelayAlert(undefined, ALERT).read).toBe(false);
  });
});
