import { describe, expect, it } from 'vitest';
import { DevnetNode } from '../../mocks/devnet/node.ts';
import { TruthBook } from './truth/truth-book.ts';

/**
 * The truth test's oracle, on a transfer the miners skip: its recipient is told it failed only if it was told it
 * pending. The node tells a pending transaction to whoever listens, on their sockets: sent while the app's socket was
 * away, or lost on the way as it dropped, and mined before the app was back, it reached the app only if a REST read
 * met it pending.
 */
describe('the truth oracle on a transaction whose mempool frame never reached the app', () => {
  const skippedTransfer = async (reached: boolean, heldPending = false) => {
    const devnet = new DevnetNode({ blockMs: null, seed: 'truth-unheard' });
    const { chain } = devnet;
    const delivered = new Set<string>();
    const truth = new TruthBook(chain, (txId) => delivered.has(txId));
    const [alice, bob] = chain.accounts.people;
    truth.watch(alice!.address, 'Alice', 0);
    truth.watch(bob!.address, 'Bob', 0);
    truth.settled();
    const entry = await chain.submit(alice!.address, {
      kind: 'stx',
      recipient: bob!.address,
      amount: 5_000_000n,
      memo: 'rent',
    });
    chain.state.skipped.add(entry.signed.txId);
    if (reached) delivered.add(entry.signed.txId);
    // The app caught up meanwhile: it holds the transaction pending as the chain does.
    if (heldPending) truth.settled();
    chain.mine();
    const expected = truth.expected().filter((item) => item.txId === entry.signed.txId);
    truth.close();
    devnet.close();
    return Object.fromEntries(
      expected.map((item) => [item.principal === alice!.address ? 'sender' : 'recipient', item]),
    );
  };

  it('requires the recipient’s "failed" when its mempool frame reached the app', async () => {
    const { sender, recipient } = await skippedTransfer(true);
    expect([sender?.phase, sender?.optional]).toEqual(['failed', undefined]);
    expect([recipient?.phase, recipient?.skipped, recipient?.optional]).toEqual(['failed', true, undefined]);
  });

  it('leaves it to the app when none did: only a REST read could have met it pending', async () => {
    const { sender, recipient } = await skippedTransfer(false);
    // The sender's own failure is told whatever it saw.
    expect([sender?.phase, sender?.optional]).toEqual(['failed', undefined]);
    expect([recipient?.phase, recipient?.optional]).toEqual(['failed', true]);
  });

  it('requires it again once the app was seen holding it pending', async () => {
    const { recipient } = await skippedTransfer(false, true);
    expect([recipient?.phase, recipient?.optional]).toEqual(['failed', undefined]);
  });
});
