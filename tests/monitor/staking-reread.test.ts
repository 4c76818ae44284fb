import { describe, expect, it } from 'vitest';
import { hasStaking } from '../../src/domain/state/staking.ts';
import { enrolInNewBond, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

describe('a staking read lost with the app closed', () => {
  it('is made again when the app opens, for a lock its kept staking does not explain, with no new block', async () => {
    const r = rig({ staking: true });
    const chain = r.devnet.chain;
    const alice = chain.accounts.people[0]!.address;
    r.monitor.start([alice]);
    await r.until(alice, (snapshot) => snapshot.staking !== undefined);
    await r.control('/devnet/stake', { staker: alice, amount: '60000000000', cycles: 3 });
    chain.mine();
    const read = await r.until(alice, (snapshot) => hasStaking(snapshot.staking) && (snapshot.stx?.locked ?? 0n) > 0n);
    // The app closed after storing the locked balance and before storing the read that followed it: what it keeps
    // is the staking read before the stake.
    const nothing = { ...read.staking!, staked: 0n, locked: 0n, lockBurnHeight: null, unlockBurnHeight: null };
    r.book.update(alice, 'testnet', (snapshot) => ({ ...snapshot, staking: nothing }));
    const height = chain.tip.height;
    r.reopen().start([alice]);
    const again = await r.until(alice, (snapshot) => hasStaking(snapshot.staking));
    expect(again.staking!.staked).toBe(read.staking!.staked);
    expect(chain.tip.height).toBe(height);
    expect(r.problems).toEqual([]);
  });
});

describe('a bond read lost with the app closed', () => {
  it('is read again when the app opens, for a pox-5 call of its own the kept staking may not reflect, with no new block', async () => {
    const r = rig({ staking: true });
    const chain = r.devnet.chain;
    const bob = chain.accounts.people[1]!.address;
    r.monitor.start([bob]);
    await r.until(bob, (snapshot) => snapshot.staking !== undefined);
    const before = r.book.get(bob)!.staking!;
    const bond = await enrolInNewBond(r, bob);
    await r.until(bob, (snapshot) => (snapshot.staking?.bonds.length ?? 0) > 0);
    // The app closed after storing the registration (its transaction) and before storing the read that followed it:
    // a bond's STX are in no balance lock, so nothing else it keeps says that the read is owed.
    r.book.update(bob, 'testnet', (snapshot) => ({ ...snapshot, staking: before }));
    const height = chain.tip.height;
    r.reopen().start([bob]);
    const again = await r.until(bob, (snapshot) => (snapshot.staking?.bonds.length ?? 0) > 0);
    expect(again.staking!.bonds.map((holding) => holding.bondIndex)).toEqual([bond.index]);
    expect(chain.tip.height).toBe(height);
    expect(r.problems).toEqual([]);
  });
});
