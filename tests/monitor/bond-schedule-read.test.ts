import { describe, expect, it } from 'vitest';
import { bondStartHeight } from '../../mocks/devnet/staking-book.ts';
import type { NodeConfig } from '../../src/chain/networks.ts';
import { HostScheduler, PUBLIC_NODE_DEFAULTS } from '../../src/chain/scheduler.ts';
import { StakingReader } from '../../src/chain/staking-reader.ts';
import { ORIGIN, enrolInNewBond, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

const LIMITS = { ...PUBLIC_NODE_DEFAULTS, maxConcurrent: 8, perMinute: 100_000 };
const NODE: NodeConfig = { network: 'testnet', url: ORIGIN, name: 'Test devnet', apiKey: null, limits: LIMITS };

describe('where a bond position stands, read from its bond', () => {
  it('comes from the bond’s schedule; while the bond’s answer cannot be read, the stored status stands and the rest of the read too, asked again at the next burn block', async () => {
    const r = rig();
    const chain = r.devnet.chain;
    const bob = chain.accounts.people[1]!.address;
    const bond = await enrolInNewBond(r, bob);
    while (chain.tip.burnHeight < bondStartHeight(bond)) chain.mine();
    // The ledger's truth: the bond runs; the node's position route still says what it stored at registration.
    expect(chain.state.staking.bondStatus(chain.state.staking.bondPositions.get(bob)!, chain.tip.burnHeight)).toBe(
      'running',
    );

    let refusing = true;
    const asked: string[] = [];
    const fetchImpl: typeof fetch = async (input, init) => {
      const path = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname;
      asked.push(path);
      // A schedule that makes no sense (the unlock before the bond opens): refused by the decoder.
      if (refusing && path === `/extended/v3/staking/bonds/${bond.index}`)
        return Response.json({ schedule: { activation: { bitcoin_height: 900 }, unlock: { bitcoin_height: 100 } } });
      return fetch(input, init);
    };
    const reader = new StakingReader(NODE, new HostScheduler(LIMITS), fetchImpl);
    const bondReads = () => asked.filter((path) => path === `/extended/v3/staking/bonds/${bond.index}`).length;

    const refused = await reader.position(bob);
    expect(refused?.bonds).toEqual([expect.objectContaining({ bondIndex: bond.index, status: 'enrolled' })]);
    expect(refused?.burnHeight).toBe(chain.tip.burnHeight);
    expect(bondReads()).toBe(1);
    // The same burn height: not asked again.
    await reader.position(bob);
    expect(bondReads()).toBe(1);

    refusing = false;
    chain.mine();
    const read = await reader.position(bob);
    expect(read?.bonds).toEqual([expect.objectContaining({ bondIndex: bond.index, status: 'running' })]);
    expect(bondReads()).toBe(2);
    // Read once: a schedule never changes.
    chain.mine();
    await reader.position(bob);
    expect(bondReads()).toBe(2);
  });
});
