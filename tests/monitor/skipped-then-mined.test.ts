import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { forwardTo, rig, serveDevnetThroughMsw } from './harness.ts';
import { allShown } from './truth/tray.ts';

serveDevnetThroughMsw();

/**
 * A transfer the miners skipped as problematic, told so; the app closed; a re-org orphaned the block and the new fork
 * mined the transfer, this time with success. Opened again, the app learns it by its sync alone (no live event: the
 * block was mined while it was away), where the transaction is one it knows, at another height with another outcome.
 * The sender is told it was sent, the recipient that it came in (the truth test's seed 923808, where the feed was cut).
 */
describe('a transfer skipped as problematic, then mined on a new fork while the app was away', () => {
  it('is told confirmed to both sides by the sync that finds it', async () => {
    const name = `skipped-then-mined-${Date.now()}`;
    let alerter: Alerter | null = null;
    const harness = rig({ sink: forwardTo(() => alerter!) });
    const { devnet, until } = harness;
    const chain = devnet.chain;
    const [alice, bob] = chain.accounts.people.map((person) => person.address) as [string, string];
    const labels = new Map([
      [alice, 'Alice'],
      [bob, 'Bob'],
    ]);
    const inbox = new Inbox(createStore(`${name}-inbox`, 'alerts'));
    alerter = new Alerter({
      ledgers: new AlertLedgerStore(createStore(`${name}-ledgers`, 'by-address')),
      inbox,
      settings: new AlertSettingsStore(createStore(`${name}-settings`, 'records')),
      watched: (network, principal) => (network === 'testnet' && labels.has(principal) ? { addedAt: 0 } : undefined),
      snapshot: (principal) => harness.book.get(principal),
      text: { label: (principal) => labels.get(principal) ?? '', nameOf: () => null, token: () => undefined },
      deliver: allShown,
      retry: { firstMs: 5, maxMs: 20 },
    });
    chain.mine();
    harness.monitor.start([alice, bob]);
    await until(alice, (s) => s.syncedAt !== null);
    await until(bob, (s) => s.syncedAt !== null);
    await harness.monitor.settled();

    const transfer = await chain.submit(alice, { kind: 'stx', recipient: bob, amount: 5_000_000n, memo: '' });
    const txId = transfer.signed.txId;
    chain.state.skipped.add(txId);
    chain.mine();
    await until(alice, (s) => s.recent.some((a) => a.txId === txId && a.statusDetail === 'problematic_skipped'));
    await harness.monitor.settled();
    await alerter.idle();
    const aliceId = alertId('testnet', alice, txId);
    const bobId = alertId('testnet', bob, txId);
    expect(inbox.get(aliceId)).toMatchObject({
      phase: 'failed',
      title: expect.stringMatching(/skipped as problematic/),
    });

    // Away: the block is orphaned and the new fork mines the transfer, with success.
    harness.monitor.stop();
    const skippedAt = chain.tip.height;
    chain.reorg(1);
    chain.mine();
    const mined = chain.tx(txId)?.state;
    expect(mined?.kind === 'confirmed' && [mined.outcome.status, mined.block.height > skippedAt]).toEqual([
      'success',
      true,
    ]);

    harness.reopen().start([alice, bob]);
    await until(alice, (s) => s.recent.some((a) => a.txId === txId && a.status === 'success'));
    await until(bob, (s) => s.recent.some((a) => a.txId === txId && a.status === 'success'));
    await harness.monitor.settled();
    await alerter.idle();
    expect(inbox.get(aliceId)).toMatchObject({ phase: 'confirmed', title: expect.stringMatching(/^Sent 5\.00 STX/) });
    expect(inbox.get(bobId)).toMatchObject({ phase: 'confirmed', title: expect.stringMatching(/^Received 5\.00 STX/) });
  });
});
