import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { describeRules } from '../../src/domain/text/rules-text.ts';

describe('describeRules', () => {
  it('sums up an address’s alert rules in one line', () => {
    expect(describeRules(DEFAULT_RULES)).toBe(
      'Received and sent · STX, tokens and NFTs · staking · also while pending',
    );
    expect(
      describeRules({
        ...DEFAULT_RULES,
        outgoing: false,
        nfts: false,
        stacking: false,
        pending: false,
        minimums: { STX: 5_000_000n },
      }),
    ).toBe('Received only · STX and tokens · under 5.00 STX ignored');
    expect(describeRules({ ...DEFAULT_RULES, incoming: false, stx: false, tokens: false, nfts: false })).toBe(
      'Sent only · no STX, tokens or NFTs · staking · also while pending',
    );
    expect(describeRules({ ...DEFAULT_RULES, muted: true })).toBe('Off: nothing is told about this address');
    // The sBTC rewards threshold set under staking is part of what is told.
    expect(describeRules({ ...DEFAULT_RULES, minimums: { 'staking:sbtc-claimable': 5_000_000n } })).toBe(
      'Received and sent · STX, tokens and NFTs · staking, rewards from 0.05 sBTC · also while pending',
    );
  });
});
