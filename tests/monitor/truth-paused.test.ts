import { describe, expect, it } from 'vitest';
import { DevnetChain } from '../../mocks/devnet/chain.ts';
import { signerManagerOf } from '../../mocks/devnet/pox5-genesis.ts';
import { StakingTimeline } from './truth/staking-oracle.ts';

/**
 * The truth test's staking oracle on rewards paused, resumed and paused again. pox-5 has no unpause; the devnet's
 * resume switches a pause off between blocks, which nothing on the chain prompts a read of: the app meets it at the
 * next block at the earliest. Paused again by that block, it was never to be told (the truth test's seed 805701).
 */
describe('the staking oracle on a pause the devnet lifted between blocks', () => {
  const pausedAgain = async (blockAfterResume: boolean) => {
    const chain = new DevnetChain('truth-paused', () => 1_800_000_000_000);
    const [dave] = chain.accounts.people;
    const signer = signerManagerOf(chain.accounts);
    const start = chain.tip.burnHeight + 1;
    await chain.submit(dave!.address, {
      kind: 'pox5-stake',
      signer,
      amount: 20_000_000_000n,
      cycles: 2,
      startBurnHeight: start,
    });
    await chain.submit(chain.state.staking.admin, { kind: 'pox5-pause-rewards' });
    chain.mine();
    const timeline = new StakingTimeline(chain);
    // Dave is watched while his rewards are paused: the app's first read, history.
    timeline.watch(dave!.address);
    timeline.settled();
    chain.state.staking.paused = false;
    // A moment the app had caught up: with no block since the resume, its read of this burn height knows the pause.
    timeline.settled();
    if (blockAfterResume) {
      chain.mine();
      timeline.settled();
    }
    await chain.submit(chain.state.staking.admin, { kind: 'pox5-pause-rewards' });
    chain.mine();
    timeline.settled();
    expect(chain.state.staking.paused).toBe(true);
    const problems = timeline.problems([], () => 'Dave');
    timeline.close();
    return problems;
  };

  it('requires no "Staking rewards paused" where no block came between the resume and the pause', async () => {
    expect(await pausedAgain(false)).toEqual([]);
  });

  it('requires it where a block came between, at which the app read the rewards running', async () => {
    expect(await pausedAgain(true)).toEqual([
      expect.stringMatching(/^Dave: missing staking alert "Staking rewards paused"/),
    ]);
  });
});
