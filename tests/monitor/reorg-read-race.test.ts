import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { answerNextAfter, rig, serveDevnetThroughMsw } from './harness.ts';
import { allShown } from './truth/tray.ts';

serveDevnetThroughMsw();

let stores = 0;

/** The devnet, a monitor of Bob and the real alerter behind it, Bob synced. */
async function watchingBob() {
  let alerter: Alerter | null = null;
  const name = `reorg-read-race-${++stores}`;
  const inbox = new Inbox(createStore(`${name}-inbox`, 'alerts'));
  const harness = rig({
    sink: {
      activities: (...args) => alerter!.activities(...args),
      baseline: (...args) => alerter!.baseline(...args),
      reverted: (...args) => alerter!.reverted(...args),
      balance: (...args) => alerter!.balance(...args),
      forked: (...args) => alerter!.forked(...args),
      wantsDetail: (...args) => alerter!.wantsDetail(...args),
    },
  });
  const { devnet, book, until } = harness;
  const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address) as [string, string];
  alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`${name}-ledgers`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`${name}-settings`, 'records')),
    watched: (network, principal) => (network === 'testnet' && principal === bob ? { addedAt: 0 } : undefined),
    snapshot: (principal) => book.get(principal),
    text: { label: () => 'Bob', nameOf: () => null, token: () => undefined },
    deliver: allShown,
  });
  devnet.chain.mine();
  devnet.chain.mine();
  harness.monitor.start([bob]);
  await until(bob, (s) => s.syncedAt !== null);
  await harness.monitor.settled();
  await alerter.idle();

  /** A transfer to Bob, mined: the feed tells it. */
  const transferToBob = async (): Promise<string> => {
    const entry = await devnet.chain.submit(alice, { kind: 'stx', recipient: bob, amount: 4242n, memo: '' });
    devnet.chain.mine();
    await until(bob, (s) => s.recent.some((activity) => activity.txId === entry.signed.txId));
    return entry.signed.txId;
  };

  /**
   * The next read of Bob's history is answered as the node had it when asked, but only after `meanwhile` ran: a block
   * the feed announces while the answer is on its way (two connections, no order between them).
   */
  const nextHistoryReadAnsweredAfter = (meanwhile: () => Promise<void>) =>
    answerNextAfter(devnet, '/extended/v3/principals/:principal/transactions', (p) => p === bob, meanwhile);

  /** What Bob's inbox says of `txId` once the monitor and the alerts are done with what they learned. */
  const toldOf = async (txId: string) => {
    await expect.poll(() => harness.monitor.status.syncing).toBe(false);
    await harness.monitor.settled();
    await alerter.idle();
    expect(harness.problems).toEqual([]);
    return inbox.get(alertId('testnet', bob, txId))?.phase;
  };
  return { harness, bob, transferToBob, nextHistoryReadAnsweredAfter, toldOf };
}

/**
 * A re-org makes the monitor read every address's history again, and what that read no longer lists is reverted.
 * The feed is a second connection: a block it announces while the read's answer is on its way is newer than the
 * answer, and must not be taken back by it.
 */
describe('a re-org sync whose answer is older than what the feed told meanwhile', () => {
  it('does not revert a transfer the feed told mined while the history was being read', async () => {
    const { harness, transferToBob, nextHistoryReadAnsweredAfter, toldOf } = await watchingBob();
    let txId = '';
    nextHistoryReadAnsweredAfter(async () => {
      txId = await transferToBob();
    });
    harness.devnet.chain.reorg(1);
    await expect.poll(() => txId).not.toBe('');
    expect(await toldOf(txId)).toBe('confirmed');
  });

  it('does not revert a transfer orphaned by the re-org and mined again while the history was being read', async () => {
    const { harness, bob, transferToBob, nextHistoryReadAnsweredAfter, toldOf } = await watchingBob();
    const txId = await transferToBob();
    await harness.monitor.settled();
    let minedAgain = false;
    nextHistoryReadAnsweredAfter(async () => {
      harness.devnet.chain.mine();
      await harness.until(bob, (s) =>
        s.recent.some((a) => a.txId === txId && a.blockHeight === harness.devnet.chain.tip.height),
      );
      minedAgain = true;
    });
    harness.devnet.chain.reorg(1);
    await expect.poll(() => minedAgain).toBe(true);
    expect(await toldOf(txId)).toBe('confirmed');
  });
});
