import { describe, expect, it } from 'vitest';
import type { Activity } from '../../src/domain/state/snapshot.ts';
import { describeActivity } from '../../src/domain/text/activity-text.ts';
import { movementLines, nothingMovedText, statusWords } from '../../src/domain/text/tx-detail.ts';

const naming = { token: () => undefined, party: (principal: string) => principal };
const call: Activity = {
  txId: '0xabc',
  status: 'success',
  kind: 'contract_call',
  counterparty: null,
  stxNet: -2000n,
  fee: 2000n,
  memo: null,
  contractCall: { contractId: 'SP000000000000000000002Q6VF78.pox-4', functionName: 'stack-stx' },
  blockHeight: 120,
  time: 1_700_000_000,
};

describe('a transaction’s movements line', () => {
  it('says a mined failed transaction moved nothing but its fee, even before its events are read', () => {
    const failed: Activity = { ...call, status: 'failed', statusDetail: 'abort_by_post_condition' };
    expect(movementLines(failed, naming)).toEqual([]);
    expect(nothingMovedText(failed)).toBe('Nothing moved; the fee was paid.');
  });

  it('does not say a fee was paid for one the miners skipped (never in a block)', () => {
    const skipped: Activity = { ...call, status: 'failed', statusDetail: 'problematic_skipped', blockHeight: null };
    expect(movementLines(skipped, naming)).toEqual([]);
    expect(nothingMovedText(skipped)).toBe('Nothing moved.');
  });

  it('leaves a successful one without its events read as not read yet', () => {
    expect(movementLines(call, naming)).toBeNull();
    expect(movementLines({ ...call, movements: [] }, naming)).toEqual([]);
    expect(nothingMovedText({ ...call, movements: [] })).toBe('Nothing moved.');
  });
});

describe('a transaction the miners skipped (problematic_skipped), on the address page', () => {
  const skipped: Activity = { ...call, status: 'failed', statusDetail: 'problematic_skipped' };
  const transfer: Activity = { ...skipped, kind: 'token_transfer', contractCall: null, counterparty: 'ST1' };

  it('is called skipped in its activity row, not failed', () => {
    expect(describeActivity(skipped, 'ST2')).toBe('Stacking skipped as problematic');
    expect(describeActivity(transfer, 'ST2')).toBe('Transfer skipped as problematic');
    expect(describeActivity({ ...transfer, statusDetail: 'abort_by_response' }, 'ST2')).toBe('Transfer failed');
  });

  it('says a skipped call in the words its failure would have, "skipped" for "failed"', () => {
    const pox = (contract: string, functionName: string): Activity => ({
      ...skipped,
      contractCall: { contractId: `SP000000000000000000002Q6VF78.${contract}`, functionName },
    });
    expect(describeActivity(pox('pox-5', 'unstake'), 'ST2')).toBe('Unstake skipped as problematic');
    expect(describeActivity({ ...pox('pox-5', 'unstake'), statusDetail: 'abort_by_response' }, 'ST2')).toBe(
      'Unstake failed',
    );
    expect(describeActivity(pox('pox-4', 'revoke-delegate-stx'), 'ST2')).toBe(
      'Revoking delegation skipped as problematic',
    );
  });

  it('has "Skipped" as its status in its detail', () => {
    expect(statusWords(skipped)).toEqual({ word: 'Skipped', reason: 'The miners skipped it as problematic.' });
  });
});
