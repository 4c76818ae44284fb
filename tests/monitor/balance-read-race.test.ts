import { describe, expect, it } from 'vitest';
import { answerNextAfter, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

/**
 * A sync reads an address's history, and its balance only when that history changed. The feed is a second
 * connection: a balance it announces while the read is on its way is newer than anything the read knew, and must not
 * be replaced by the balance the sync started from (a staker's row kept no "locked" line after her stake was mined:
 * the feed told the lock, a sync begun before the block put the old balance back).
 */
describe('a sync under way while the feed tells a new balance', () => {
  it('keeps the balance the feed told, as the ledger has it', async () => {
    const harness = rig();
    const { devnet, book, until, monitor } = harness;
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address) as [string, string];
    devnet.chain.mine();
    monitor.start([bob]);
    await until(bob, (s) => s.syncedAt !== null);
    await monitor.settled();
    const ledger = () => ({
      available: devnet.chain.state.available(bob),
      total: devnet.chain.state.account(bob).balance,
    });

    // The next read of Bob's history is answered as the node had it when asked, after a transfer to him was mined
    // and the feed's balance of it reached the monitor.
    let told = false;
    answerNextAfter(
      devnet,
      '/extended/v3/principals/:principal/transactions',
      (principal) => principal === bob,
      async () => {
        await devnet.chain.submit(alice, { kind: 'stx', recipient: bob, amount: 4242n, memo: '' });
        devnet.chain.mine();
        await until(bob, (s) => s.stx?.available === ledger().available);
        told = true;
      },
    );
    await monitor.syncPrincipal(bob);
    expect(told).toBe(true);
    await monitor.settled();
    const stx = book.get(bob)!.stx!;
    expect({ available: stx.available, total: stx.total }).toEqual(ledger());
    expect(harness.problems).toEqual([]);
  });

  it('keeps the balance the feed told while the read after an unlock was on its way', async () => {
    const harness = rig({ staking: true });
    const { devnet, book, until, monitor, control } = harness;
    const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address) as [string, string];
    monitor.start([alice]);
    await until(alice, (s) => s.syncedAt !== null);
    await control('/devnet/stake', { staker: alice, amount: '60000000000', cycles: 1 });
    devnet.chain.mine();
    await until(alice, (s) => (s.stx?.locked ?? 0n) > 0n);
    await monitor.settled();
    const ledger = () => ({
      locked: devnet.chain.state.account(alice).locked,
      total: devnet.chain.state.account(alice).balance,
    });

    // The lock runs out at a burn height with no transaction of Alice: only her balance is read. Its answer, as the
    // node had it when asked, comes after a transfer to her was mined and the feed told her new balance.
    let told = false;
    answerNextAfter(
      devnet,
      '/extended/v3/principals/:principal/balances/stx',
      (principal) => principal === alice && devnet.chain.state.account(alice).locked === 0n,
      async () => {
        await devnet.chain.submit(bob, { kind: 'stx', recipient: alice, amount: 4242n, memo: '' });
        devnet.chain.mine();
        await until(alice, (s) => s.stx?.total === ledger().total);
        told = true;
      },
    );
    await control('/devnet/cycles', { count: 3 });
    await expect.poll(() => told, { timeout: 10_000 }).toBe(true);
    await expect.poll(() => monitor.status.syncing).toBe(false);
    await monitor.settled();
    const stx = book.get(alice)!.stx!;
    expect({ locked: stx.locked, total: stx.total }).toEqual(ledger());
    expect(ledger().locked).toBe(0n);
    expect(harness.problems).toEqual([]);
  });

  it('reads the balance once more when a lock runs out while a read of it was on its way', async () => {
    const harness = rig({ staking: true });
    const { devnet, until, monitor, control } = harness;
    const alice = devnet.chain.accounts.people[0]!.address;
    await control('/devnet/stake', { staker: alice, amount: '60000000000', cycles: 1 });
    devnet.chain.mine();
    const unlockAt = devnet.chain.state.account(alice).burnUnlockHeight!;
    expect(devnet.chain.state.account(alice).locked).toBeGreaterThan(0n);

    // The app starts: its first read of Alice's balance is answered as the node had it when asked, locked, after
    // the chain passed her unlock height and the monitor heard the block that did it. No block comes after.
    answerNextAfter(
      devnet,
      '/extended/v3/principals/:principal/balances/stx',
      (principal) => principal === alice,
      async () => {
        while (devnet.chain.tip.burnHeight < unlockAt) devnet.chain.mine();
        await expect
          .poll(() => monitor.status.tip?.burnHeight ?? 0, { timeout: 10_000 })
          .toBeGreaterThanOrEqual(unlockAt);
      },
    );
    monitor.start([alice]);
    const unlocked = await until(alice, (s) => s.stx !== null && s.stx.locked === 0n);
    // The ledger, not the code under test, says what the balance is now.
    expect(unlocked.stx?.total).toBe(devnet.chain.state.account(alice).balance);
    expect(devnet.chain.state.account(alice).locked).toBe(0n);
    expect(harness.problems).toEqual([]);
  });
});
