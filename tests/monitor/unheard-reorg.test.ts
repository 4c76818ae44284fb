import { createStore } from 'idb-keyval';
import { describe, expect, it } from 'vitest';
import { alertId } from '../../src/domain/alerts/alert-plan.ts';
import { Alerter } from '../../src/notify/alerter.ts';
import { AlertLedgerStore } from '../../src/store/alert-ledger-store.ts';
import { AlertSettingsStore } from '../../src/store/alert-settings-store.ts';
import { Inbox } from '../../src/store/inbox.ts';
import { rig, serveDevnetThroughMsw } from './harness.ts';
import { allShown } from './truth/tray.ts';

serveDevnetThroughMsw();

let stores = 0;

/** The devnet, a monitor of Bob and the real alerter behind it, Bob first synced at the newest of a few blocks. */
async function watchingBob() {
  let alerter: Alerter | null = null;
  const name = `unheard-reorg-${++stores}`;
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
  const { devnet, book, until, control } = harness;
  const [alice, bob] = devnet.chain.accounts.people.map((person) => person.address);
  alerter = new Alerter({
    ledgers: new AlertLedgerStore(createStore(`${name}-ledgers`, 'by-address')),
    inbox,
    settings: new AlertSettingsStore(createStore(`${name}-settings`, 'records')),
    watched: (network, principal) => (network === 'testnet' && principal === bob ? { addedAt: 0 } : undefined),
    snapshot: (principal) => book.get(principal),
    text: { label: () => 'Bob', nameOf: () => null, token: () => undefined },
    deliver: allShown,
  });
  await control('/devnet/mine', { count: 2 });
  harness.monitor.start([bob!]);
  await until(bob!, (s) => s.syncedAt !== null);
  await harness.monitor.settled();
  await alerter.idle();
  const firstSyncHeight = devnet.chain.tip.height;

  /** A transfer to Bob the node hears of now, and a re-org whose new fork mines it at Bob's first sync height. */
  const transferMinedByUnheardFork = async (): Promise<string> => {
    const { tx_id } = await control('/devnet/transfer', { sender: alice, recipient: bob, amount: '4242' });
    await control('/devnet/reorg', { depth: 1 });
    const mined = devnet.chain.tx(String(tx_id))?.state;
    expect(mined?.kind === 'confirmed' && mined.block.height).toBe(firstSyncHeight);
    return String(tx_id);
  };
  /** What Bob's inbox says of `txId` once the monitor knows the chain as it is. */
  const toldOnceCaughtUp = async (txId: string) => {
    await until(bob!, (s) => s.recent.some((activity) => activity.txId === txId));
    await harness.monitor.settled();
    await alerter.idle();
    expect(harness.problems).toEqual([]);
    return inbox.get(alertId('testnet', bob!, txId))?.phase;
  };
  return { harness, bob: bob!, transferMinedByUnheardFork, toldOnceCaughtUp };
}

/**
 * A re-org nothing announced: the node re-organises and goes down before its feed sends the new fork's blocks, or
 * while the app is closed. A transfer the new fork mined at the very height an address was first synced at came after
 * the watch began: it is news, not history.
 */
describe('a re-org the feed never announced', () => {
  it('is found when the node is back: the transfer the new fork mined at the first sync height is told', async () => {
    const { harness, transferMinedByUnheardFork, toldOnceCaughtUp } = await watchingBob();
    // Down: the mempool event, the orphaning and the new fork's block events all go unheard.
    harness.devnet.outage(600_000);
    const txId = await transferMinedByUnheardFork();
    harness.devnet.outage(0);
    expect(await toldOnceCaughtUp(txId)).toBe('confirmed');
  });

  it('is found when the app opens again, from the block its last run ended at', async () => {
    const { harness, bob, transferMinedByUnheardFork, toldOnceCaughtUp } = await watchingBob();
    harness.monitor.stop();
    const txId = await transferMinedByUnheardFork();
    harness.reopen().start([bob]);
    expect(await toldOnceCaughtUp(txId)).toBe('confirmed');
  });
});
