import { c32address } from 'c32check';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { alertBody, alertTitle, type TextContext } from '../../src/domain/text/alert-text.ts';
import {
  findLookalike,
  LOOKALIKE_EXPLANATION,
  lookalikeEnds,
  poisoningSuspect,
  trustedAddresses,
} from '../../src/domain/address/lookalike.ts';
import { emptySnapshot, type Activity } from '../../src/domain/state/snapshot.ts';
import LOOKALIKES from '../fixtures/lookalikes.json' with { type: 'json' };

const C32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const hash = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => Buffer.from(bytes).toString('hex'));
const address = fc.tuple(fc.constantFrom(22, 20, 26, 21), hash).map(([version, h]) => c32address(version, h));
/** What a poisoner's vanity generator produces: the same first 6 and last 4 characters, a different middle. */
const lookalike = fc
  .tuple(address, fc.array(fc.constantFrom(...C32), { minLength: 31, maxLength: 31 }))
  .map(([real, middle]) => ({ real, fake: real.slice(0, 6) + middle.join('') + real.slice(-4) }))
  .filter(({ real, fake }) => real !== fake);

const VICTIM = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const dust = (sender: string, change: Partial<Activity> = {}): Activity => ({
  txId: `0x${'ab'.repeat(32)}`,
  status: 'success',
  kind: 'token_transfer',
  counterparty: sender,
  stxNet: 1n,
  fee: 180n,
  memo: null,
  contractCall: null,
  blockHeight: 10,
  time: 1_700_000_000,
  sender,
  movements: [{ type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender, recipient: VICTIM, amount: 1n }],
  ...change,
});

describe('lookalike addresses (address poisoning)', () => {
  it('a generated lookalike of a trusted address is found, whatever the middle', () => {
    fc.assert(
      fc.property(lookalike, ({ real, fake }) => {
        expect(lookalikeEnds(fake)).toBe(lookalikeEnds(real));
        expect(findLookalike(fake, new Set([real]))).toBe(real);
        // A contract of the lookalike's is its deployer's lookalike.
        expect(findLookalike(`${fake}.airdrop`, new Set([real]))).toBe(real);
      }),
      { numRuns: 2000 },
    );
  });

  it('an address differing in its first 6 or last 4 characters is not flagged, nor is a trusted one itself', () => {
    fc.assert(
      fc.property(address, fc.nat({ max: 9 }), fc.constantFrom(...C32), (real, which, char) => {
        const index = which < 6 ? which : real.length - 10 + which;
        fc.pre(real[index] !== char && index >= 2);
        const other = real.slice(0, index) + char + real.slice(index + 1);
        expect(findLookalike(other, new Set([real]))).toBeNull();
        expect(findLookalike(real, new Set([real]))).toBeNull();
      }),
      { numRuns: 2000 },
    );
  });

  it('two random addresses are almost never lookalikes (40 bits must match)', () => {
    let flagged = 0;
    fc.assert(
      fc.property(address, address, (a, b) => {
        if (findLookalike(a, new Set([b]))) flagged++;
      }),
      { numRuns: 5000 },
    );
    expect(flagged).toBe(0);
  });

  it('a checksum-valid lookalike (found by a vanity search, tests/support/lookalike.ts) is found too', () => {
    const fake = LOOKALIKES.unit[VICTIM as keyof typeof LOOKALIKES.unit];
    expect(fake.address).not.toBe(VICTIM);
    expect(c32address(26, fake.hash)).toBe(fake.address);
    expect(findLookalike(fake.address, new Set([VICTIM]))).toBe(VICTIM);
  });

  it('trusts the watched addresses and those they sent to, never those that merely sent to them', () => {
    const payee = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
    const stranger = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
    const snapshot = {
      ...emptySnapshot(VICTIM, 'testnet'),
      recent: [
        dust(VICTIM, {
          counterparty: payee,
          stxNet: -500n,
          movements: [
            { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: VICTIM, recipient: payee, amount: 500n },
          ],
        }),
        dust(stranger),
      ],
    };
    const trusted = trustedAddresses([VICTIM], [snapshot]);
    expect([...trusted].sort()).toEqual([payee, VICTIM].sort());
  });

  it('flags what came in from a lookalike, not what went out to it, nor a failed transfer', () => {
    const payee = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
    const fake = `${payee.slice(0, 6)}${'Z'.repeat(31)}${payee.slice(-4)}`;
    const trusted = new Set([VICTIM, payee]);
    expect(poisoningSuspect(dust(fake), VICTIM, trusted)).toEqual({ sender: fake, imitates: payee });
    const outgoing = dust(VICTIM, {
      counterparty: fake,
      stxNet: -5n,
      movements: [
        { type: 'stx', assetIdentifier: 'STX', kind: 'transfer', sender: VICTIM, recipient: fake, amount: 5n },
      ],
    });
    expect(poisoningSuspect(outgoing, VICTIM, trusted)).toBeNull();
    expect(poisoningSuspect(dust(fake, { status: 'failed', movements: [], stxNet: 0n }), VICTIM, trusted)).toBeNull();
  });

  it('the alert says so instead of "Received", naming both addresses in full', () => {
    const payee = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
    const fake = `${payee.slice(0, 6)}${'Z'.repeat(31)}${payee.slice(-4)}`;
    const trusted = new Set([VICTIM, payee]);
    const text: TextContext = {
      label: (principal) => (principal === payee ? 'Landlord' : principal === VICTIM ? 'Treasury' : ''),
      nameOf: () => null,
      token: () => undefined,
      suspect: (activity, principal) => poisoningSuspect(activity, principal, trusted),
    };
    const item = (activity: Activity, phase: AlertItem['phase'] = 'confirmed'): AlertItem => ({
      id: 'x',
      network: 'testnet',
      principal: VICTIM,
      subject: activity.txId,
      phase,
      activity,
      amount: null,
      at: 0,
      catchUp: false,
    });
    const title = alertTitle(item(dust(fake)), text);
    expect(title).toBe(`Possible address-poisoning: ${fake.slice(0, 6)}…${fake.slice(-4)} looks like Landlord`);
    expect(title).not.toMatch(/Received/);
    expect(alertTitle(item(dust(fake), 'pending'), text)).toMatch(/^Possible address-poisoning/);
    const body = alertBody(item(dust(fake)), text);
    expect(body).toContain(`Sent by ${fake}, not ${payee}`);
    // An honest transfer from the real payee is told as usual.
    expect(alertTitle(item(dust(payee)), text)).toMatch(/^Received/);
  });

  it('the explanation states the rule the code applies', () => {
    expect(LOOKALIKE_EXPLANATION).toContain('first 6 characters');
    expect(LOOKALIKE_EXPLANATION).toContain('last 4 characters');
  });
});
