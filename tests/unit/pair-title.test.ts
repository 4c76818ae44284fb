import { describe, expect, it } from 'vitest';
import { alertId, type AlertItem } from '../../src/domain/alerts/alert-plan.ts';
import { pairWords } from '../../src/domain/alerts/transfer-pair.ts';
import { naming, type TextContext } from '../../src/domain/text/alert-text.ts';
import { toldAlone } from '../support/told.ts';
import type { Activity } from '../../src/domain/state/snapshot.ts';

// A phone shows a notification's title on one line: a transaction between two watched addresses leads with its amount,
// and the names after it are cut, so that "2.22 STX" is never the part that is lost (issue 33).

const TREASURY = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const CAROL = 'ST3TBRT2T63GE247HKMG0NAYA7WV3T7C8JP7MJ7X4';
const TX = `0x${'c3'.repeat(32)}`;
const LABELS: Record<string, string> = {
  [TREASURY]: 'Treasury (2-of-3)',
  [CAROL]: 'Carol — savings for the kids’ college fund, class of 2031',
};
const context: TextContext = {
  label: (principal) => LABELS[principal] ?? '',
  nameOf: () => null,
  token: () => undefined,
};

const received = (phase: AlertItem['phase']): AlertItem => {
  const activity: Activity = {
    txId: TX,
    status: phase === 'pending' ? 'pending' : 'success',
    kind: 'token_transfer',
    counterparty: TREASURY,
    sender: TREASURY,
    stxNet: 2_220_000n,
    fee: 180n,
    memo: null,
    contractCall: null,
    blockHeight: phase === 'pending' ? null : 10,
    time: 1_700_000_000,
  };
  return {
    id: alertId('testnet', CAROL, TX),
    network: 'testnet',
    principal: CAROL,
    subject: TX,
    phase,
    activity,
    amount: null,
    at: 0,
    catchUp: false,
  };
};

describe('the title of a transaction between watched addresses', () => {
  it('leads with the amount, its names cut to 16 characters in a notification', () => {
    const pending = toldAlone(received('pending'), context);
    expect(pending.data.pair?.title).toBe('2.22 STX · Treasury (2-of-… → Carol — savings… — pending');
    const mined = toldAlone(received('confirmed'), context);
    expect(mined.data.pair?.title).toBe('2.22 STX · Treasury (2-of-… → Carol — savings…');
  });

  it('keeps the names whole where there is room to wrap them (the inbox)', () => {
    const words = pairWords(received('confirmed'), naming(context), () => true, { title: '', body: '' });
    expect(words?.title).toBe(`2.22 STX · ${LABELS[TREASURY]} → ${LABELS[CAROL]}`);
  });

  it('cuts a name between characters as a person counts them, never inside a flag or an emoji', () => {
    const flags = '🇫🇷🇩🇪🇮🇹🇪🇸🇵🇹🇳🇱🇧🇪🇦🇹🇨🇭🇩🇰🇸🇪🇳🇴🇫🇮🇮🇪🇬🇷🇵🇱🇨🇿';
    const family: TextContext = { ...context, label: (principal) => (principal === CAROL ? flags : 'Treasury') };
    const title = toldAlone(received('confirmed'), family).data.pair?.title;
    // Fifteen whole flags (two regional indicators each) and the ellipsis: never half a flag.
    const cut = [...(title?.split(' → ')[1] ?? '')];
    expect(cut.length).toBe(31);
    expect(cut.at(-1)).toBe('…');
    expect(cut.slice(0, 30).join('')).toBe([...flags].slice(0, 30).join(''));
  });
});
