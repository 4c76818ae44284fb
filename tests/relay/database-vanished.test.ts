/**
 * The relay's PostgreSQL goes away without a word: a stand-in between them (vanishing-peer.ts) stops passing bytes
 * and closes nothing, as a host that vanished, a network split or a hung server does. The relay's statements must
 * fail within their limits instead of waiting for the operating system, its writes be retried on new connections,
 * and every alert land once the database answers again, stored and pushed once each: also when a COMMIT reached the
 * server and only its answer was lost. The limits are made short here (RelayHooks.databaseLimits, peer-relay.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './harness.ts';
import { GAVE_UP, quietDevnet, relayOn, startPeerWorld, watching, type PeerWorld } from './peer-relay.ts';
import { Observed } from './scenario.ts';

let world: PeerWorld;

beforeAll(async () => {
  world = await startPeerWorld();
});

afterAll(async () => {
  await world?.close();
});

describe('the database vanishes under the relay (PostgreSQL)', () => {
  it('statements on the silent connections fail within their limits, and every alert lands once it is back', async () => {
    const { peer } = world;
    const devnet = await quietDevnet();
    const database = await world.database();
    const run = await relayOn(world, { database, instance: database, devnet });
    try {
      const { chain } = devnet.node;
      const [alice, bob] = chain.accounts.people.map((person) => person.address) as [string, string];
      const observed = new Observed(chain);
      const device = await watching(world, run, observed, bob);
      await observed.transfer(alice, bob, 1_000n);
      await device.delivered('the first transfer, pending, while the database answers');

      // Gone: the connections the relay holds say nothing more, and new ones are never answered.
      peer.vanish();
      await observed.transfer(alice, bob, 2_000n);
      chain.mine();
      await eventually('a statement to give up on the vanished database', async () =>
        GAVE_UP.test(run.said()) ? true : undefined,
      );
      peer.restore();
      await device.delivered('both transfers, confirmed, once the database is back');
      await run.relay.sender.idle();
      await device.expectOnce();
      // Told as storage failures, retried until stored.
      expect(run.said()).toMatch(/failed, trying again until it works/);
      expect(run.said()).toMatch(/done after \d+ tries/);
    } finally {
      await run.close();
      await devnet.close();
    }
  });

  it('a COMMIT that reached the server, its answer lost: the state is stored and pushed once, not twice', async () => {
    const { peer } = world;
    const devnet = await quietDevnet();
    const database = await world.database();
    const run = await relayOn(world, { database, instance: database, devnet });
    try {
      const { chain } = devnet.node;
      const [, , carol, dave] = chain.accounts.people.map((person) => person.address) as [
        string,
        string,
        string,
        string,
      ];
      const observed = new Observed(chain);
      const device = await watching(world, run, observed, dave);

      // Each COMMIT reaches the server, which commits; its answer is lost and the connection goes silent.
      peer.loseCommitAnswers();
      await observed.transfer(carol, dave, 3_000n);
      await device.delivered('the transfer, pending, its transaction committed unanswered');
      expect(peer.commitsLost).toBeGreaterThan(0);
      peer.restore();
      chain.mine();
      await device.delivered('the transfer, confirmed');
      await run.relay.sender.idle();
      await device.expectOnce();
    } finally {
      await run.close();
      await devnet.close();
    }
  });
});
