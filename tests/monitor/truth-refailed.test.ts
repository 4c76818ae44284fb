import { describe, expect, it } from 'vitest';
import { DevnetChain } from '../../mocks/devnet/chain.ts';
import { signerManagerOf } from '../../mocks/devnet/pox5-genesis.ts';
import { TruthBook } from './truth/truth-book.ts';

/**
 * The truth oracle on a transaction that failed in two ways: skipped by the miners in a block a re-org orphaned, then
 * refused by the contract on the new fork. "Failed" told twice is then two states in other words, not a repeat
 * (the truth test's seed 805700), once for each change; failing the same way again is one state.
 */
describe('the truth oracle on a failure mined again after a re-org', () => {
  const claimSkippedThenMinedAgain = async (skippedAgain: boolean) => {
    const chain = new DevnetChain('truth-refailed', () => 1_800_000_000_000);
    const truth = new TruthBook(chain);
    const [dave] = chain.accounts.people;
    truth.watch(dave!.address, 'Dave', 0);
    // A claim with nothing to claim: pox-5 refuses it, unless the miners skip it first.
    const claim = await chain.submit(dave!.address, {
      kind: 'pox5-claim',
      signer: signerManagerOf(chain.accounts),
      rewardCycle: 1,
    });
    const txId = claim.signed.txId;
    chain.state.skipped.add(txId);
    chain.mine();
    const first = truth.failureChanges(txId);
    truth.beforeReorg(1);
    chain.reorg(1);
    if (skippedAgain) chain.state.skipped.add(txId);
    chain.mine();
    const state = chain.tx(txId)?.state;
    truth.close();
    return {
      first,
      status: state?.kind === 'confirmed' ? state.outcome.status : null,
      changes: truth.failureChanges(txId),
    };
  };

  it('says so where the new fork refused what the orphaned block skipped', async () => {
    expect(await claimSkippedThenMinedAgain(false)).toEqual({
      first: 0,
      status: 'abort_by_response',
      changes: 1,
    });
  });

  it('does not where it was skipped again', async () => {
    expect(await claimSkippedThenMinedAgain(true)).toEqual({
      first: 0,
      status: 'problematic_skipped',
      changes: 0,
    });
  });
});
