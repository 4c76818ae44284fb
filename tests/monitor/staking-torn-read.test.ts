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

  it('is kept when a stake is mined between them (nothing staked yet, the STX locked): the next read tells the stake', async () => {
    const r = rig();
    const chain = r.devnet.chain;
    const bob = chain.accounts.people[1]!.address;
    await r.control('/devnet/stake', { staker: bob, amount: STAKE.toString(), cycles: 2 });
    // The staking route answers before the stake is mined; the balance after.
    const { reader, asked } = tornReader((n) => void (n === 1 && chain.mine()));
    expect(await reader.position(bob)).toMatchObject({ staked: 0n, locked: STAKE });
    expect(stakingReads(asked)).toBe(1);
    expect(await reader.position(bob)).toMatchObject({ staked: STAKE, locked: STAKE });
    expect(ledgerOf(r, bob)).toEqual({ locked: STAKE, staked: STAKE });
  });

  it(`keeps the last of ${TORN_READS} reads that all say staked with nothing locked, asking no more`, async () => {
    const r = rig();
    const chain = r.devnet.chain;
    const alice = chain.accounts.people[0]!.address;
    await r.control('/devnet/stake', { staker: alice, amount: STAKE.toString(), cycles: 2 });
    chain.mine();
    expect(ledgerOf(r, alice)).toEqual({ locked: STAKE, staked: STAKE });
    // A node whose balances lag its staking route: the lock is never in the balance it answers.
    const asked: string[] = [];
    const lagging: typeof fetch = async (input, init) => {
      const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      asked.push(url.pathname);
      const response = await fetch(input, init);
      if (!url.pathname.endsWith('/balances/stx')) return response;
      const balance = (await response.json()) as Record<string, unknown>;
      delete balance['locked'];
      return Response.json(balance);
    };
    const reader = new StakingReader(NODE, new HostScheduler(LIMITS), lagging);
    expect(await reader.position(alice, true)).toMatchObject({ staked: STAKE, locked: 0n });
    expect(stakingReads(asked)).toBe(TORN_READS);
  });
});
