import { createECDH, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { decodePushPayload, type RelayAlert } from '../../src/domain/relay/relay-message.ts';
import type { Activity, Movement } from '../../src/domain/state/snapshot.ts';
import { fitsOnePush, MAX_PAYLOAD_BYTES, pushPayload } from '../../src/relay/push/payload.ts';

const WALKER = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const ALICE = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const TX = `0x${'cd'.repeat(32)}`;
const ORIGIN = 'https://watch.example';
/** What push services accept as an aes128gcm body (RFC 8291 §4 and the services' documented limit). */
const PUSH_SERVICE_LIMIT = 4096;

const receiver = createECDH('prime256v1');
receiver.generateKeys();
const keys = { p256dh: receiver.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
const encryptedSize = (text: string): number =>
  webpush.encrypt(keys.p256dh, keys.auth, text, 'aes128gcm').cipherText.length;

const CONTRACT = `${ALICE}.${'a'.repeat(40)}`;
const movement = (n: number, hostile: string): Movement => ({
  type: n % 2 ? 'ft' : 'nft',
  assetIdentifier: `${CONTRACT}::${hostile.slice(0, 60) || 'x'}`,
  kind: 'transfer',
  sender: n % 3 ? WALKER : ALICE,
  recipient: n % 3 ? ALICE : WALKER,
  amount: 10n ** 30n + BigInt(n),
  nftId: `u"${hostile.slice(0, 40)}"`,
});

function alertWith(hostile: string, movements: number): RelayAlert {
  const activity: Activity = {
    txId: TX,
    status: 'success',
    kind: 'contract_call',
    counterparty: CONTRACT,
    stxNet: -(10n ** 30n),
    fee: 10n ** 20n,
    memo: hostile.slice(0, 300),
    contractCall: { contractId: CONTRACT, functionName: hostile.slice(0, 128) || 'f' },
    blockHeight: 1,
    time: 1,
    sender: WALKER,
    movements: Array.from({ length: movements }, (_, n) => movement(n, hostile)),
  };
  const item: AlertItem = {
    id: `testnet:${WALKER}:${TX}`,
    network: 'testnet',
    principal: WALKER,
    subject: TX,
    phase: 'confirmed',
    activity,
    amount: null,
    at: 1,
    catchUp: false,
  };
  return {
    cursor: '99999999999999',
    id: item.id,
    network: 'testnet',
    principal: WALKER,
    txId: TX,
    phase: 'confirmed',
    title: hostile.slice(0, 300),
    body: hostile.slice(0, 2000),
    path: '/\\evil.example/login',
    at: 1,
    facts: { ...alertFacts(item), names: { [ALICE]: hostile.slice(0, 100) } },
  };
}

/** Long and hostile text: 4-byte characters, escapes JSON doubles, markup, right-to-left overrides. */
const hostileText = fc
  .array(fc.constantFrom('𝕏', '"', '\\', '<img src=x onerror=alert(1)>', '\u202e', '\u0000', 'é', 'a', '/\\evil'), {
    minLength: 0,
    maxLength: 2500,
  })
  .map((parts) => parts.join(''));

describe('push payloads stay under the push services’ limit', () => {
  it('in both shapes, whatever the words and facts hold (encrypted as sent, aes128gcm)', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 0, max: 200 }), fc.boolean(), (hostile, movements, declarative) => {
        const alert = alertWith(hostile, movements);
        const text = pushPayload(alert, declarative ? ORIGIN : null);
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
        expect(encryptedSize(text)).toBeLessThanOrEqual(PUSH_SERVICE_LIMIT);
        const message = JSON.parse(text) as Record<string, unknown>;
        const read = decodePushPayload(message);
        expect(read.ok).toBe(true);
        if (!read.ok) return;
        // The device opens the path it builds, never the relay's.
        expect(read.value[0].path).toBe(`/address/${WALKER}#tx-${TX}`);
        if (!declarative) return;
        const notification = message['notification'] as Record<string, unknown>;
        expect(message).toMatchObject({ web_push: 8030, mutable: true });
        expect(typeof notification['title']).toBe('string');
        expect(notification['title']).not.toBe('');
        expect(notification['navigate']).toBe(`${ORIGIN}/address/${WALKER}#tx-${TX}`);
        expect(notification['tag']).toBe(`tx:${alert.id}`);
      }),
      { numRuns: 300, seed: Number(process.env['PAYLOAD_SEED'] ?? 20261124) },
    );
  });

  it('keeps the facts of an ordinary alert, so that the device can word it; drops them before the words', () => {
    const ordinary = alertWith('rent', 2);
    const kept = decodePushPayload(JSON.parse(pushPayload(ordinary, ORIGIN)));
    expect(kept.ok && kept.value[0].facts).toEqual(ordinary.facts);
    const crowded = alertWith('x'.repeat(300), 150);
    const trimmed = decodePushPayload(JSON.parse(pushPayload(crowded, ORIGIN)));
    expect(trimmed.ok && trimmed.value[0].facts).toBe(undefined);
    expect(trimmed.ok && trimmed.value[0].body).toBe(crowded.body);
  });
});

/** One side of an STX transfer from Walker to Alice, as the relay stores it for the watched `principal`. */
function transferSide(principal: string, memo = 'rent', cursor = 7): RelayAlert {
  const activity: Activity = {
    txId: TX,
    status: 'success',
    kind: 'token_transfer',
    counterparty: principal === WALKER ? ALICE : WALKER,
    stxNet: principal === WALKER ? -4_300_300n : 4_300_000n,
    fee: 300n,
    memo,
    contractCall: null,
    blockHeight: 1,
    time: 1,
    sender: WALKER,
    transferAmount: 4_300_000n,
    movements: [
      { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: WALKER, recipient: ALICE, amount: 4_300_000n },
    ],
  };
  const item: AlertItem = {
    id: `testnet:${principal}:${TX}`,
    network: 'testnet',
    principal,
    subject: TX,
    phase: 'confirmed',
    activity,
    amount: null,
    at: 1,
    catchUp: false,
  };
  return {
    cursor: String(cursor),
    id: item.id,
    network: 'testnet',
    principal,
    txId: TX,
    phase: 'confirmed',
    title: principal === WALKER ? 'Sent 4.30 STX' : 'Received 4.30 STX',
    body: memo,
    path: '/',
    at: 1,
    facts: alertFacts(item),
  };
}

describe('a push of several sides of one transaction', () => {
  const sides = [transferSide(WALKER), transferSide(ALICE, 'rent', 8)];

  it('carries each side whole, in order, in both shapes, and the device reads them back', () => {
    for (const origin of [null, ORIGIN]) {
      const read = decodePushPayload(JSON.parse(pushPayload(sides, origin)));
      expect(read.ok && read.value.map(({ id, title, body, facts }) => ({ id, title, body, facts }))).toEqual(
        sides.map(({ id, title, body, facts }) => ({ id, title, body, facts })),
      );
    }
    // One alert is sent exactly as before.
    expect(JSON.parse(pushPayload(sides[0]!))).toEqual({ v: 1, alert: sides[0] });
  });

  it('declarative: one notification in the transaction’s words, under its tag, opening the recipient’s page', () => {
    const message = JSON.parse(pushPayload(sides, ORIGIN)) as { notification: Record<string, unknown> };
    expect(message.notification).toMatchObject({
      title: '4.30 STX · ST3TBR…J7X4 → ST2CY5…K9AG',
      tag: `tx:testnet:${TX}`,
      navigate: `${ORIGIN}/address/${ALICE}#tx-${TX}`,
    });
  });

  it('stays under the limit whatever the words hold: the facts go first, the last side’s first, then characters', () => {
    fc.assert(
      fc.property(hostileText, fc.integer({ min: 2, max: 4 }), fc.boolean(), (hostile, count, declarative) => {
        const many = Array.from({ length: count }, (_, n) => ({
          ...alertWith(hostile, 40),
          cursor: String(n + 1),
          id: `testnet:${n % 2 ? ALICE : WALKER}${n > 1 ? `.c${n}` : ''}:${TX}`,
          principal: `${n % 2 ? ALICE : WALKER}${n > 1 ? `.c${n}` : ''}`,
        }));
        const text = pushPayload(many, declarative ? ORIGIN : null);
        expect(Buffer.byteLength(text)).toBeLessThanOrEqual(MAX_PAYLOAD_BYTES);
        expect(encryptedSize(text)).toBeLessThanOrEqual(PUSH_SERVICE_LIMIT);
        const read = decodePushPayload(JSON.parse(text));
        expect(read.ok && read.value.map((side) => side.id)).toEqual(many.map((side) => side.id));
      }),
      { numRuns: 100, seed: Number(process.env['PAYLOAD_SEED'] ?? 20261130) },
    );
    // Two sides whose facts do not fit together (the fewest movements that make it so): the last side's go, the
    // first keeps its own.
    const twoSides = (movements: number) => [
      alertWith('x', movements),
      { ...alertWith('x', movements), cursor: '2', id: `testnet:${ALICE}:${TX}`, principal: ALICE },
    ];
    const whole = (given: RelayAlert[]) => JSON.stringify({ v: 1, alert: given[0], otherSides: given.slice(1) });
    const crowded = twoSides(
      Array.from({ length: 200 }, (_, n) => n).find((n) => whole(twoSides(n)).length > MAX_PAYLOAD_BYTES)!,
    );
    const read = decodePushPayload(JSON.parse(pushPayload(crowded)));
    expect(read.ok && read.value.map((side) => side.facts !== undefined)).toEqual([true, false]);
    expect(read.ok && read.value.map((side) => side.body)).toEqual(['x', 'x']);
  });

  it('fitsOnePush: sides go together while their words fit whole, facts or not', () => {
    expect(fitsOnePush(sides, ORIGIN)).toBe(true);
    const long = (principal: string) => ({
      ...alertWith('y'.repeat(2000), 0),
      principal,
      id: `testnet:${principal}:${TX}`,
    });
    expect(fitsOnePush([long(WALKER)], null)).toBe(true);
    expect(fitsOnePush([long(WALKER), long(ALICE)], null)).toBe(false);
  });
});
