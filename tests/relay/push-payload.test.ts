import { createECDH, randomBytes } from 'node:crypto';
import fc from 'fast-check';
import webpush from 'web-push';
import { describe, expect, it } from 'vitest';
import { alertFacts } from '../../src/domain/alerts/alert-facts.ts';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { decodePushPayload, type RelayAlert } from '../../src/domain/relay/relay-message.ts';
import type { Activity, Movement } from '../../src/domain/state/snapshot.ts';
import { MAX_PAYLOAD_BYTES, pushPayload } from '../../src/relay/push/payload.ts';

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
        expect(read.value.path).toBe(`/address/${WALKER}#tx-${TX}`);
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
    expect(kept.ok && kept.value.facts).toEqual(ordinary.facts);
    const crowded = alertWith('x'.repeat(300), 150);
    const trimmed = decodePushPayload(JSON.parse(pushPayload(crowded, ORIGIN)));
    expect(trimmed.ok && trimmed.value.facts).toBe(undefined);
    expect(trimmed.ok && trimmed.value.body).toBe(crowded.body);
  });
});
