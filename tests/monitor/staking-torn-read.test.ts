import { describe, expect, it } from 'vitest';
import type { NodeConfig } from '../../src/chain/networks.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../../src/chain/scheduler.ts';
import { StakingReader, TORN_READS } from '../../src/chain/staking-reader.ts';
import { ORIGIN, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

const STAKE = 60_000_000_000n;

const LIMITS = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: 100_000 };
const NODE: NodeConfig = { network: 'testnet', url: ORIGIN, name: 'Test devnet', apiKey: null, limits: LIMITS };

/**
 * A reader over the devnet whose node moves on between two requests of a read: `between(n)` runs once the staking
 * route has answered the n-th time (from 1), before the balance is asked for. The paths it asked, in order.
 */
function tornReader(between: (n: number) => Promise<void> | void) {
  const asked: string[] = [];
  const fetchImpl: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
    asked.push(path);
    if (path.endsWith('/staking')) await between(asked.filter((each) => each.endsWith('/staking')).length);
    return response;
  };
  return { reader: new StakingReader(NODE, new HostScheduler(LIMITS), fetchImpl), asked };
}

const stakingReads = (asked: readonly string[]) => asked.filter((path) => path.endsWith('/staking')).length;

/** What the devnet's ledger holds: the STX locked now, and how much of it pox-5 stakes. */
function ledgerOf(r: ReturnType<typeof rig>, principal: string) {
  const chain = r.devnet.chain;
  return {
    locked: chain.state.stx.get(principal)?.locked ?? 0n,
    staked: chain.state.staking.lockedStx(principal, chain.tip.burnHeight),
  };
}

describe('a staking read whose requests a block comes between', () => {
  it('is made again when the lock ends between the staking route and the balance, and tells the chain after it', async () => {
    const r = rig();
    const chain = r.devnet.chain;
    const alice = chain.accounts.people[0]!.address;
    await r.control('/devnet/stake', { staker: alice, amount: STAKE.toString(), cycles: 1 });
    chain.mine();
    const unlockHeight = chain.state.stx.get(alice)!.burnUnlockHeight;
    while (chain.tip.burnHeight < unlockHeight - 1) chain.mine();
    expect(ledgerOf(r, alice)).toEqual({ locked: STAKE, staked: STAKE });
    // The staking route answers with the lock still there; the lock's burn block is mined before the balance is read.
    const { reader, asked } = tornReader((n) => void (n === 1 && chain.mine()));
    const position = await reader.position(alice, true);
    expect(ledgerOf(r, alice)).toEqual({ locked: 0n, staked: 0n });
    expect(position).toMatchObject({
      staked: 0n,
      locked: 0n,
      unlockBurnHeight: null,
      burnHeight: chain.tip.burnHeight,
    });
    expect(stakingReads(asked)).toBe(2);
  });

  it('is made again when a stake is mined between them, and tells the stake', async () => {
    const r = rig();
    const chain = r.devnet.chain;
    const bob = chain.accounts.people[1]!.address;
    await r.control('/devnet/stake', { staker: bob, amount: STAKE.toString(), cycles: 2 });
    // The staking route answers before the stake is mined; the balance after.
    const { reader, asked } = tornReader((n) => void (n === 1 && chain.mine()));
    const position = await reader.position(bob);
    expect(ledgerOf(r, bob)).toEqual({ locked: STAKE, staked: STAKE });
    expect(position).toMatchObject({ staked: STAKE, locked: STAKE });
    expect(stakingReads(asked)).toBe(2);
  });

  it(`keeps the last of ${TORN_READS} reads that all disagree, asking no more`, async () => {
    const r = rig();
    const chain = r.devnet.chain;
    // Someone with nothing locked (the devnet's genesis gives one person a pox-4 lock).
    const carol = chain.accounts.people.find(({ address }) => !chain.state.stx.get(address)?.locked)!.address;
    await r.control('/devnet/stake', { staker: carol, amount: STAKE.toString(), cycles: 2 });
    // Each read is torn: the stake is mined between the first one's requests, then more is staked between each next's.
    const { reader, asked } = tornReader(async (n) => {
      if (n > 1) await r.control('/devnet/stake-update', { staker: carol, amountIncrease: '1000000' });
      chain.mine();
    });
    const position = await reader.position(carol);
    expect(stakingReads(asked)).toBe(TORN_READS);
    // The last read as it came: the staking route before the last increase, the balance after it.
    const increased = STAKE + BigInt(TORN_READS - 1) * 1_000_000n;
    expect(ledgerOf(r, carol)).toEqual({ locked: increased, staked: increased });
    expect(position).toMatchObject({ staked: increased - 1_000_000n, locked: increased });
  });
});
