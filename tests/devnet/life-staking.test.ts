import { describe, expect, it } from 'vitest';
import type { DevnetChain } from '../../mocks/devnet/chain.ts';
import { StakingLife } from '../../mocks/devnet/life-staking.ts';
import { DevnetNode } from '../../mocks/devnet/node.ts';

/** The staking summary as a client reads it from the devnet's staking route. */
async function summary(node: DevnetNode, principal: string) {
  const response = await node.handle({
    method: 'GET',
    url: new URL(`http://devnet.test/extended/v3/principals/${principal}/staking`),
    headers: {},
  });
  return JSON.parse(response.body) as {
    stx: { locked: string; rewards: { btc: { accrued: string; claimed: string; claimable: string } } };
    bonds: { count: number; rewards: { btc: { claimable: string } } };
  };
}

describe('the demo chain’s staking', () => {
  it('stakes, makes sBTC rewards claimable within a few cycles, claims them, and enrols Dave in a bond', async () => {
    const node = new DevnetNode({ blockMs: null, activity: true });
    const chain: DevnetChain = node.chain;
    const staking = new StakingLife(chain);
    const [alice, bob, , dave] = chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
      string,
    ];
    let claimableAt: number | null = null;
    let claimedAt: number | null = null;
    // As the devnet's timer does: a block, then activity and the staking script before the next one.
    for (let block = 0; block < 60; block++) {
      chain.mine();
      await node.life.act();
      await staking.step();
      const rewards = (await summary(node, alice)).stx.rewards.btc;
      if (claimableAt === null && BigInt(rewards.claimable) > 0n) claimableAt = chain.tip.height;
      if (claimedAt === null && BigInt(rewards.claimed) > 0n) claimedAt = chain.tip.height;
    }
    expect(claimableAt, 'Alice has sBTC to claim within three cycles').not.toBeNull();
    expect(claimableAt!).toBeLessThanOrEqual(30);
    expect(claimedAt, 'and claims it').not.toBeNull();
    expect(claimedAt!).toBeGreaterThan(claimableAt!);
    expect((await summary(node, bob)).stx.locked).not.toBe('0');
    expect((await summary(node, dave)).bonds.count).toBe(1);
    const calls = chain.minedNewestFirst().filter((entry) => entry.signed.intent.kind.startsWith('pox5-'));
    const failed = calls.filter(
      (entry) => entry.state.kind !== 'confirmed' || entry.state.outcome.status !== 'success',
    );
    expect(failed.map((entry) => entry.signed.intent.kind)).toEqual([]);
    node.close();
  });
});
