import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { judgeTokens, looksLikeLink, unsolicitedAssets } from '../../src/domain/alerts/token-trust.ts';
import { formatToken } from '../../src/domain/text/asset-text.ts';

const ME = 'ST2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKQ9H6DPR';
const OTHER = 'ST1PQHQKV0RJXZFY1DGX8MNSNYVE3VGZJSRTPGZGM';
const SCAM = `${OTHER}.airdrop::claim`;
const GOLD = `${OTHER}.watch-gold::gold`;

const activity = (txId: string, sender: string, assets: [string, bigint][], status: Activity['status'] = 'success') =>
  ({
    txId,
    status,
    kind: 'contract_call',
    counterparty: null,
    stxNet: 0n,
    fee: 0n,
    memo: null,
    contractCall: null,
    blockHeight: 1,
    time: 0,
    sender,
    assets: assets.map(([assetIdentifier, net]) => ({ type: 'ft', assetIdentifier, net })),
  }) satisfies Activity;

describe('unsolicited tokens', () => {
  it('flags a token that only ever came in someone else’s transaction', () => {
    const recent = [activity('0x1', OTHER, [[SCAM, 1000n]])];
    expect([...unsolicitedAssets({ principal: ME, recent, pending: [] })]).toEqual([SCAM]);
  });

  it('trusts a token the address moved or asked for itself (a swap it signed, a transfer it sent)', () => {
    const recent = [activity('0x2', OTHER, [[GOLD, 5n]]), activity('0x1', ME, [[GOLD, 10n]])];
    expect(unsolicitedAssets({ principal: ME, recent, pending: [] }).size).toBe(0);
  });

  it('trusts a token whose contract the address called itself, though what that call moved was never read', () => {
    const transfer = {
      ...activity('0x1', ME, []),
      contractCall: { contractId: GOLD.split('::')[0]!, functionName: 'transfer' },
    };
    const recent = [activity('0x2', OTHER, [[GOLD, 5n]]), transfer];
    expect(unsolicitedAssets({ principal: ME, recent, pending: [] }).size).toBe(0);
    const theirs = { ...transfer, sender: OTHER };
    expect([
      ...unsolicitedAssets({ principal: ME, recent: [activity('0x2', OTHER, [[GOLD, 5n]]), theirs], pending: [] }),
    ]).toEqual([GOLD]);
  });

  it('does not count a failed transaction of its own as asking', () => {
    const recent = [activity('0x2', OTHER, [[SCAM, 5n]]), activity('0x1', ME, [[SCAM, 10n]], 'failed')];
    expect([...unsolicitedAssets({ principal: ME, recent, pending: [] })]).toEqual([SCAM]);
  });
});

describe('judging from the whole history', () => {
  const holdings = (tokens: [string, bigint][]) => ({ tokens: new Map(tokens), nfts: new Map<string, number>() });

  it('does not judge from part of the history: a send of its own may lie beyond what was read', () => {
    const history = [activity('0x2', OTHER, [[SCAM, 5n]])];
    const judgement = judgeTokens({
      principal: ME,
      history,
      pending: [],
      complete: false,
      holdings: holdings([[SCAM, 5n]]),
    });
    expect(judgement).toEqual({ judged: false });
  });

  it('flags, from a complete history, what only others brought and all it holds of it', () => {
    const history = [activity('0x2', OTHER, [[SCAM, 5n]])];
    const judgement = judgeTokens({
      principal: ME,
      history,
      pending: [],
      complete: true,
      holdings: holdings([[SCAM, 5n]]),
    });
    expect(judgement.judged && [...judgement.unsolicited]).toEqual([SCAM]);
  });

  it('trusts what it held before its first transaction (a genesis share), though only others sent it more', () => {
    const history = [activity('0x2', OTHER, [[GOLD, 5n]])];
    const judgement = judgeTokens({
      principal: ME,
      history,
      pending: [],
      complete: true,
      holdings: holdings([[GOLD, 105n]]),
    });
    expect(judgement.judged && judgement.unsolicited.size).toBe(0);
  });
});

describe('token names that read as links', () => {
  it.each(['Claim at stx-airdrop.example', 'www.free-stx', 'https://x', 'VISIT STACKS-BONUS.COM/claim'])(
    '%s is marked',
    (name) => expect(looksLikeLink(name)).toBe(true),
  );
  it.each(['Wrapped Gold', 'sBTC', 'Token v1.5', 'DUSD', 'St. Patrick'])('%s is a plain name', (name) =>
    expect(looksLikeLink(name)).toBe(false),
  );
});

describe('token symbols that read as links', () => {
  it('never shows one in an amount: the contract\u2019s asset name stands in, marked', () => {
    const metadata = { name: 'Airdrop', symbol: 'stx-airdrop.example', decimals: 6 };
    const words = formatToken(1_500_000n, SCAM, metadata);
    expect(words).toBe('1.50 claim (its symbol looks like a link: a common scam)');
    expect(words).not.toContain('stx-airdrop.example');
  });
  it('shows a plain symbol as it is', () =>
    expect(formatToken(1_500_000n, GOLD, { name: 'Gold', symbol: 'WGOLD', decimals: 6 })).toBe('1.50 WGOLD'));
});
