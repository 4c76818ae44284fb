import { describe, expect, it } from 'vitest';
import { answerNextAfter, rig, serveDevnetThroughMsw } from './harness.ts';

serveDevnetThroughMsw();

/**
 * The node's tip over REST and the feed's blocks come by two connections: a REST answer asked before a block the feed
 * told is older than it. Kept as the tip, it took the burn height back: a lock that ran out looked not yet run out,
 * and its balance was not read again until another block came.
 */
describe('a tip read over REST while the feed tells a newer block', () => {
  it('keeps the newer block as the tip', async () => {
    const { devnet, monitor, until } = rig();
    const bob = devnet.chain.accounts.people[1]!.address;
    let heard = false;
    // The reconcile's read of the tip is answered as the node had it when asked, after two blocks the feed told.
    answerNextAfter(
      devnet,
      '/extended',
      () => true,
      async () => {
        devnet.chain.mine();
        devnet.chain.mine();
        await expect.poll(() => monitor.status.tip?.height).toBe(devnet.chain.tip.height);
        heard = true;
      },
    );
    monitor.start([bob]);
    await until(bob, (s) => s.syncedAt !== null);
    expect(heard).toBe(true);
    await expect.poll(() => monitor.status.syncing).toBe(false);
    expect(monitor.status.tip).toMatchObject({
      height: devnet.chain.tip.height,
      burnHeight: devnet.chain.tip.burnHeight,
    });
  });
});
