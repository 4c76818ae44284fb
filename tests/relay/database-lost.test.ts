/**
 * What a relay on PostgreSQL does around a database that vanished (vanishing-peer.ts: silent connections, nothing
 * closed, no goodbye answered): started again on the database the last run lost, it alerts a device registered then
 * from its first transaction; the idle connection that hears the other instances notices within seconds and catches
 * up on what was notified meanwhile; and a stop while the database is gone finishes, leaving to the next start
 * everything stored, which it then sends. Limits and deadlines are made short (peer-relay.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, registerDevice } from './harness.ts';
import { GAVE_UP, quietDevnet, relayOn, startPeerWorld, watching, type PeerWorld } from './peer-relay.ts';
import { Observed } from './scenario.ts';

let world: PeerWorld;

beforeAll(async () => {
  world = await startPeerWorld();
});

afterAll(async () => {
  await world?.close();
});

const HEARING_DROPPED = /the PostgreSQL connection that hears other instances dropped/;

describe('a relay around a database that vanished (PostgreSQL)', () => {
  it('started again on the database the last run lost, it alerts a device registered then from its first transaction', async () => {
    const { peer } = world;
    const devnet = await quietDevnet();
    const database = await world.database();
    const { chain } = devnet.node;
    const [alice, bob, carol, dave] = chain.accounts.people.map((person) => person.address) as [
      string,
      string,
      string,
      string,
    ];
    const first = await relayOn(world, { database, instance: 'restarted', devnet });
    try {
      const observed = new Observed(chain);
      const device = await watching(world, first, observed, bob);
      await observed.transfer(alice, bob, 1_000n);
      await device.delivered('the first transfer, pending');
      peer.vanish();
      chain.mine();
      await eventually('a statement to give up on the vanished database', async () =>
        GAVE_UP.test(first.said()) ? true : undefined,
      );
      peer.restore();
      await device.delivered('the first transfer, confirmed, once the database is back');
      await first.relay.sender.idle();
      await device.expectOnce();
    } finally {
      await first.close();
    }
    // The same instance started again, bob's device in the database: its follower is live before any registration.
    // The hand-over of principals to the chain follower was batched for registrations too (FOLLOW_EVERY_MS, stretched
    // here): a registration answered before its principals were handed over missed a transaction sent right after
    // the answer (its `mempool` event was heard for nobody), and its pending state was never told.
    const second = await relayOn(world, {
      database,
      instance: 'restarted',
      devnet,
      hooks: { monitorTiming: { followEveryMs: 3_000 } },
    });
    try {
      const observed = new Observed(chain);
      const device = await watching(world, second, observed, dave);
      await observed.transfer(carol, dave, 3_000n);
      await device.delivered("the new device's first transfer, pending");
      chain.mine();
      await device.delivered("the new device's first transfer, confirmed");
      await second.relay.sender.idle();
      await device.expectOnce();
    } finally {
      await second.close();
      await devnet.close();
    }
  });

  it('the connection that hears other instances notices the vanished database, and catches up once it is back', async () => {
    const { peer, standIn } = world;
    const devnet = await quietDevnet();
    const database = await world.database();
    const [, , , dave] = devnet.node.chain.accounts.people.map((person) => person.address) as string[];
    const hearing = await relayOn(world, { database, instance: 'through-the-peer', devnet });
    const other = await relayOn(world, { database, instance: 'straight', devnet, throughPeer: false });
    try {
      peer.vanish();
      // Idle, it is never asked anything: only its heartbeat finds that nothing answers (TCP's probes find the
      // stand-in there).
      await eventually(
        'the relay to notice that its LISTEN connection went silent',
        async () => (HEARING_DROPPED.test(hearing.said()) ? true : undefined),
        60_000,
      );
      // Registered on the other instance while this one cannot hear it: the NOTIFY is lost on the silent connection.
      const device = await registerDevice(other.relay.url, other.relay.vapidPublicKey, standIn, [dave!]);
      expect(device.registered.status).toBe(201);
      peer.restore();
      await eventually(
        'the relay to learn of the device once it listens again',
        async () => (hearing.relay.engine.known().includes(device.id) ? true : undefined),
        60_000,
      );
    } finally {
      await hearing.close();
      await other.close();
      await devnet.close();
    }
  });

  it('stopped while the database is gone, it stops; started again, it sends what was stored and judges the rest', async () => {
    const { peer } = world;
    const devnet = await quietDevnet();
    const database = await world.database();
    const { chain } = devnet.node;
    const [alice, bob] = chain.accounts.people.map((person) => person.address) as [string, string];
    const observed = new Observed(chain);
    // A short wait for the work under way: the stop is bounded by it, and by the database's limits.
    const first = await relayOn(world, { database, instance: 'stopped', devnet, hooks: { drainMs: 2_000 } });
    let device: Awaited<ReturnType<typeof watching>>;
    try {
      device = await watching(world, first, observed, bob);
      await observed.transfer(alice, bob, 1_000n);
      await device.delivered('the first transfer, pending');
      // Its told mark stored too: else the push is rightly sent once more after the restart (CI saw it, busy).
      await first.relay.sender.idle();
      peer.vanish();
      await observed.transfer(alice, bob, 2_000n);
      chain.mine();
      await eventually('a statement to give up on the vanished database', async () =>
        GAVE_UP.test(first.said()) ? true : undefined,
      );
      // Its writes are retried until stored, and its sockets' goodbyes are never answered: it stops anyway.
      await first.stop();
      expect(first.said()).toMatch(/stop cut short/);
    } finally {
      await first.close();
    }
    peer.restore();
    const second = await relayOn(world, { database, instance: 'stopped', devnet });
    try {
      await device.delivered('both transfers, confirmed, by the relay started again');
      await second.relay.sender.idle();
      await device.expectOnce(second.direct);
    } finally {
      await second.close();
      await devnet.close();
    }
  });
});
