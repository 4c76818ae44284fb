/**
 * The partition leases on a real PostgreSQL server, without relays: shares, a quick restart that finds its old leases,
 * a graceful stop that lets everything go at once, a restart's own queued states handed to its sender once, and the
 * heartbeat's fence around a stalled instance's sender.
 */
import webpush from 'web-push';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LEASE_MS,
  PartitionLeases,
  RENEW_MS,
  type LeaseHooks,
  type LeaseTiming,
} from '../../src/relay/cluster/partition-leases.ts';
import { partitionOf, PARTITIONS } from '../../src/relay/cluster/partitions.ts';
import { createLog } from '../../src/relay/log.ts';
import { pushTopic } from '../../src/relay/push/payload.ts';
import { fetchPost, postPush } from '../../src/relay/push/post.ts';
import type { PushJob } from '../../src/relay/push/post-request.ts';
import type { PushPoster } from '../../src/relay/push/poster.ts';
import { PushSender } from '../../src/relay/push/sender.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { newLedger, record } from '../../src/domain/alerts/alert-ledger.ts';
import type { InboxEntry } from '../../src/domain/alerts/inbox.ts';
import { leaseFence } from '../../src/relay/cluster/write-fence.ts';
import { AlertWrites } from '../../src/relay/storage/alert-writes.ts';
import { DeviceInbox, DeviceLedgers } from '../../src/relay/storage/device-alert-stores.ts';
import { queuedSendOf, type QueuedRow, type QueuedSend } from '../../src/relay/storage/deliveries.ts';
import { putDevice } from '../../src/relay/storage/devices.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { eventually } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

let postgres: RunningPostgres;
let db: Database;
const running: PartitionLeases[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  db = await openDatabase({ url: postgres.url }, () => undefined);
  await migrate(db);
});

afterAll(async () => {
  for (const leases of running) await leases.halt();
  await db?.close();
  await postgres?.stop();
});

const quiet = createLog({ write: () => undefined });

/** Leases whose hooks record what they were told. */
function leasesOf(name: string, timing?: LeaseTiming): { leases: PartitionLeases; gained: number[]; lost: number[] } {
  const told = { gained: [] as number[], lost: [] as number[] };
  const hooks: LeaseHooks = {
    ready: () => true,
    gained: async (parts) => void told.gained.push(...parts),
    lost: async (parts) => void told.lost.push(...parts),
    claimed: () => undefined,
    lapsed: async () => undefined,
    renewed: () => undefined,
  };
  const leases = new PartitionLeases(db, name, hooks, quiet, timing);
  running.push(leases);
  return { leases, ...told };
}

const heldBy = async (name: string): Promise<number> =>
  Number(
    (
      await db.query<{ count: number | string }>('SELECT count(*) AS count FROM partition_leases WHERE owner = $1', [
        name,
      ])
    )[0]?.count ?? 0,
  );

describe('partition leases', () => {
  it('a restart that finds its old leases while another instance is alive keeps only its share', async () => {
    const first = leasesOf('a');
    await first.leases.start();
    expect(first.leases.status().partitions).toBe(PARTITIONS);
    // Killed (its rounds stop, its leases stay); another instance says it is alive and ready; it starts again at once.
    await first.leases.halt();
    await db.query(`INSERT INTO instances (name, seen_at, started_at, ready_at) VALUES ('b', $1, $1, $1)`, [
      Date.now(),
    ]);
    const again = leasesOf('a');
    await again.leases.start();
    expect(again.leases.status().partitions).toBe(PARTITIONS / 2);
    expect(again.gained.length, 'told to judge only its share').toBe(PARTITIONS / 2);
    expect(await heldBy('a')).toBe(PARTITIONS / 2);

    // A graceful stop lets go of everything and says so: the other takes them at its next round.
    await again.leases.stop();
    expect(await heldBy('a')).toBe(0);
    const other = leasesOf('b');
    await other.leases.start();
    expect(other.leases.status().partitions).toBe(PARTITIONS);
  });

  it('a restart hands its sender what its killed run left queued, not also what it stores once it judges', async () => {
    for (const leases of running) await leases.stop();
    await db.query(
      `INSERT INTO devices (id, secret_hash, endpoint, p256dh, auth, created_at, updated_at, seen_at)
       VALUES ('d', '', 'https://push.example/d', '', '', 0, 0, 0)`,
    );
    const store = (cursor: number) =>
      db.query(
        `INSERT INTO deliveries (device_id, cursor, alert_id, phase, urgency, alert, claimed_by)
         VALUES ('d', $1, $2, 'pending', 'normal', $3, 'c')`,
        [
          cursor,
          `alert-${cursor}`,
          JSON.stringify({ id: `alert-${cursor}`, phase: 'pending', cursor: String(cursor) }),
        ],
      );
    await store(1);
    const claimed: number[] = [];
    const hooks: LeaseHooks = {
      ready: () => true,
      // Judging for its devices, it stores a state in its name; its writes hand that one to its sender themselves.
      gained: async () => void (await store(2)),
      lost: async () => undefined,
      claimed: (sends) => void claimed.push(...sends.map((send) => send.cursor)),
      lapsed: async () => undefined,
      renewed: () => undefined,
    };
    const restarted = new PartitionLeases(db, 'c', hooks, quiet);
    running.push(restarted);
    await restarted.start();
    expect(claimed, 'each state handed to the sender once').toEqual([1]);
  });
});

const DEVICE = 'device-fenced-aaaaaaaaaa';
const vapid = { ...webpush.generateVAPIDKeys(), subject: 'mailto:relay@example.org' };
/** Which alert each push's Topic names (a push carries nothing else in the clear). */
const topics = new Map<string, string>();

/** States stored in `owner`'s name (as its writes store them), read back as its sender is handed them. */
async function storeClaimed(owner: string, ...cursors: number[]): Promise<QueuedSend[]> {
  for (const cursor of cursors) {
    const id = `alert-${cursor}`;
    topics.set(pushTopic(DEVICE, id), id);
    const alert = { cursor: String(cursor), id, network: 'testnet', principal: 'p', txId: null, phase: 'pending' };
    await db.query(
      `INSERT INTO deliveries (device_id, cursor, alert_id, phase, urgency, alert, claimed_by)
       VALUES ($1, $2, $3, 'pending', 'normal', $4, $5)`,
      [DEVICE, cursor, id, JSON.stringify({ ...alert, title: 't', body: 'b', path: '/', at: Date.now() }), owner],
    );
  }
  const rows = await db.query<QueuedRow>(
    `SELECT device_id, cursor, tries, urgency, alert, next_try_at, redriven_at FROM deliveries
      WHERE device_id = $1 AND cursor = ANY($2::bigint[]) ORDER BY cursor`,
    [DEVICE, cursors],
  );
  return rows.map(queuedSendOf);
}

/** Pushes the fake push service accepted, by alert. */
const pushed: string[] = [];
const fetch = (async (_url: string, init: RequestInit) => {
  pushed.push(topics.get((init.headers as Record<string, string>)['Topic']!) ?? '?');
  return new Response(null, { status: 201 });
}) as typeof globalThis.fetch;

/**
 * One device, and an instance `stalled` whose sender is fenced by its leases, on its own clock (the test moves it on
 * to make a stall; rounds only when the test asks for them). `poster` stands for its push threads, if given.
 */
async function fencedInstance(poster?: PushPoster) {
  for (const leases of running) await leases.stop();
  for (const table of ['deliveries', 'partition_leases', 'instances']) await db.query(`DELETE FROM ${table}`);
  pushed.length = 0;
  await db.transaction((sql) =>
    putDevice(
      sql,
      {
        id: DEVICE,
        secretHash: 'h',
        subscription: {
          endpoint: `https://fcm.googleapis.com/x/${DEVICE}`,
          expirationTime: null,
          keys: {
            p256dh: 'BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u-Ts1XbjhazAkj7I99e8QcYP7DkM',
            auth: 'tBHItJI5svbpez7KI4CCXg',
          },
        },
        watches: [],
      },
      1,
    ),
  );
  const clock = { ahead: 0 };
  const timing = { now: () => Date.now() + clock.ahead, renewMs: 3_600_000 };
  let leases: PartitionLeases | null = null;
  const sender = new PushSender({
    db,
    vapid,
    ...(poster ? { poster } : { fetch }),
    now: timing.now,
    forgotten: async () => undefined,
    takeUpQueued: false,
    fence: () => leases?.freshUntil() ?? 0,
  });
  await sender.start();
  leases = new PartitionLeases(
    db,
    'stalled',
    {
      ready: () => true,
      gained: async () => undefined,
      lost: async () => undefined,
      claimed: (sends) => sender.enqueue(sends),
      lapsed: (claims) => sender.keepClaimed(claims),
      renewed: () => sender.resume(),
    },
    quiet,
    timing,
  );
  running.push(leases);
  await leases.start();
  /** Its event loop stalls for a lease: its last heartbeat is a lease old by its own clock and by the database's. */
  const stall = async () => {
    clock.ahead = LEASE_MS;
    await db.query(`UPDATE instances SET seen_at = seen_at - $1 WHERE name = 'stalled'`, [LEASE_MS + 1_000]);
    await db.query(`UPDATE partition_leases SET expires_at = 0 WHERE owner = 'stalled'`);
  };
  return { sender, leases, stall, timing };
}

/** Another instance at the tip, which takes its share of partitions and the queued states nobody alive claims. */
async function otherInstance(name = 'other'): Promise<{ other: PartitionLeases; taken: number[] }> {
  const taken: number[] = [];
  const other = new PartitionLeases(
    db,
    name,
    {
      ready: () => true,
      gained: async () => undefined,
      lost: async () => undefined,
      claimed: (sends) => void taken.push(...sends.map((send) => send.cursor)),
      lapsed: async () => undefined,
      renewed: () => undefined,
    },
    quiet,
    { renewMs: 3_600_000 },
  );
  running.push(other);
  await other.start();
  return { other, taken };
}

describe('a round cut short', () => {
  it('partitions leased in a round that failed before their devices were taken up are taken up at the next round', async () => {
    // Alone: the instances of the tests before are stopped, their leases gone.
    for (const earlier of running) await earlier.halt();
    await db.query('DELETE FROM partition_leases');
    await db.query('DELETE FROM instances');
    const told: number[] = [];
    let cutShort = true;
    const leases = new PartitionLeases(
      db,
      'cut-short',
      {
        ready: () => true,
        // What the engine's reads would throw with the database away mid-round.
        gained: async (parts) => {
          if (cutShort) {
            cutShort = false;
            throw new Error('Query read timeout');
          }
          told.push(...parts);
        },
        lost: async () => undefined,
        claimed: () => undefined,
        lapsed: async () => undefined,
        renewed: () => undefined,
      },
      quiet,
      { renewMs: 60_000 },
    );
    running.push(leases);
    try {
      await leases.start();
      expect(told).toEqual([]);
      const held = await heldBy('cut-short');
      expect(held).toBe(PARTITIONS);
      // Leased here, and so nobody else's to judge: the next round takes them up.
      await leases.renew();
      expect(told).toHaveLength(held);
      for (const part of told) expect(leases.ownsPartition(part)).toBe(true);
    } finally {
      await leases.stop();
    }
  });
});

describe('the heartbeat fences the sender', () => {
  it('a stalled instance starts no push once its heartbeat is stale, and after the lapse sends only what it still claims', async () => {
    const { sender, leases, stall } = await fencedInstance();
    sender.enqueue(await storeClaimed('stalled', 1));
    await sender.idle();
    expect(pushed, 'sent while its heartbeat is fresh').toEqual(['alert-1']);

    await stall();
    // Two states it stored in its name just before the stall wait: no push starts.
    sender.enqueue(await storeClaimed('stalled', 2, 3));
    await sender.idle();
    expect(pushed).toEqual(['alert-1']);
    expect(leases.status().sending).toBe(false);

    expect((await otherInstance()).taken).toEqual([2, 3]);

    // It runs again, with one more state stored in its name meanwhile; its next round finds the lapse.
    sender.enqueue(await storeClaimed('stalled', 4));
    await leases.renew();
    await sender.idle();
    expect(pushed, 'what the other instance took is pushed by it alone').toEqual(['alert-1', 'alert-4']);
    expect(leases.status().sending).toBe(true);
    sender.stop();
  });

  it('a push handed to a busy thread while the heartbeat was fresh is not posted once it is stale, nor after the lapse if another instance took it', async () => {
    // Its push threads, busy: each push waits until the test lets it go, then is posted as a thread posts it.
    const held: { job: PushJob; go: () => void }[] = [];
    const answered: string[] = [];
    let clock: () => number = Date.now;
    const poster: PushPoster = {
      post: async (job) => {
        await new Promise<void>((go) => held.push({ job, go }));
        const outcome = await postPush(job, fetchPost(fetch), clock);
        answered.push(`${job.alerts[0].id}${outcome.fenced ? ' fenced' : ''}`);
        return outcome;
      },
      close: async () => undefined,
    };
    const { sender, leases, stall, timing } = await fencedInstance(poster);
    clock = timing.now;
    sender.enqueue(await storeClaimed('stalled', 5, 6));
    expect(
      held.map(({ job }) => job.alerts[0].id),
      'both handed over while fresh',
    ).toEqual(['alert-5', 'alert-6']);

    await stall();
    expect((await otherInstance()).taken).toEqual([5, 6]);
    // One reaches the wire while the instance still stalls: past its fence, handed back unposted.
    held[0]!.go();
    await eventually('its answer', async () => (answered.length === 1 ? true : undefined));
    expect(answered).toEqual(['alert-5 fenced']);
    // Its next round finds the lapse (the other still on the thread), then the other reaches the wire.
    await leases.renew();
    held[1]!.go();
    await eventually('its answer', async () => (answered.length === 2 ? true : undefined));
    expect(answered).toEqual(['alert-5 fenced', 'alert-6 fenced']);

    // A new state after the lapse is the only one handed over again, and is posted as usual.
    sender.enqueue(await storeClaimed('stalled', 7));
    await eventually('the push handed over', async () => (held.length === 3 ? true : undefined));
    expect(
      held.map(({ job }) => job.alerts[0].id),
      'what the other instance took is not handed over again',
    ).toEqual(['alert-5', 'alert-6', 'alert-7']);
    held[2]!.go();
    await sender.idle();
    expect(pushed).toEqual(['alert-7']);
    sender.stop();
  });

  it('an instance that hands a partition over leaves its queued states of it to the new owner, and sends them no more', async () => {
    // The device (its partition in the upper half, handed over below) and empty tables.
    const setUp = await fencedInstance();
    await setUp.leases.stop();
    setUp.sender.stop();
    expect(partitionOf(DEVICE)).toBeGreaterThanOrEqual(PARTITIONS / 2);
    let leases: PartitionLeases | null = null;
    const sender = new PushSender({
      db,
      vapid,
      fetch,
      forgotten: async () => undefined,
      takeUpQueued: false,
      fence: () => leases?.freshUntil() ?? 0,
    });
    await sender.start();
    leases = new PartitionLeases(
      db,
      'handing',
      {
        ready: () => true,
        gained: async () => undefined,
        // As the cluster does: it stops judging for their devices, then hands their queued states over.
        lost: (parts) => sender.handOver((id) => parts.includes(partitionOf(id))),
        claimed: (sends) => sender.enqueue(sends),
        lapsed: (claims) => sender.keepClaimed(claims),
        renewed: () => sender.resume(),
      },
      quiet,
      { renewMs: 3_600_000 },
    );
    running.push(leases);
    await leases.start();
    // A state it stored, waiting in its sender for a retry (the push service failed it).
    const [waiting] = await storeClaimed('handing', 20);
    sender.enqueue([{ ...waiting!, tries: 1, notBefore: Date.now() + 3_600_000 }]);

    // Another instance comes; at its next round the first hands over half of the partitions, the device's among them.
    const { other, taken } = await otherInstance('taking');
    await leases.renew();
    expect(leases.status().partitions).toBe(PARTITIONS / 2);
    const [row] = await db.query<{ claimed_by: string | null }>(
      'SELECT claimed_by FROM deliveries WHERE device_id = $1 AND cursor = 20',
      [DEVICE],
    );
    expect(row?.claimed_by, 'left for the partition’s next owner').toBeNull();
    // The new owner claims it at its next round, and sends it in order with the states it stores for the device.
    await other.renew();
    expect(other.status().partitions).toBe(PARTITIONS / 2);
    expect(taken).toEqual([20]);
    await sender.idle();
    expect(pushed, 'the first sends it no more').toEqual([]);
    sender.stop();
  });

  it('partitions let go behind the tip while their write failed are written away at the next round: their queued states go to the instance at the tip', async () => {
    const setUp = await fencedInstance();
    await setUp.leases.stop();
    setUp.sender.stop();
    // The database refuses the write that lets partitions go (and only it) while `away` is set.
    let away = false;
    const flaky: Database = {
      kind: db.kind,
      query: (text, params) =>
        away && text.includes('DELETE FROM partition_leases WHERE owner = $1 AND part = ANY')
          ? Promise.reject(new Error('the database went away'))
          : db.query(text, params),
      transaction: (work) => db.transaction(work),
      size: () => db.size(),
      within: () => flaky,
      close: async () => undefined,
    };
    let atTip = true;
    const clock = { ahead: 0 };
    const lost: number[] = [];
    const lagging = new PartitionLeases(
      flaky,
      'lagging',
      {
        ready: () => atTip,
        gained: async () => undefined,
        lost: async (parts) => void lost.push(...parts),
        claimed: () => undefined,
        lapsed: async () => undefined,
        renewed: () => undefined,
      },
      quiet,
      { now: () => Date.now() + clock.ahead, renewMs: 3_600_000 },
    );
    running.push(lagging);
    await lagging.start();
    await storeClaimed('lagging', 30);
    // Behind the tip near the end of its leases, with another instance at the tip (the lagging one not counted in
    // its share): it lets everything go, but the database refuses the write.
    await db.query(`UPDATE instances SET ready_at = ready_at - $1 WHERE name = 'lagging'`, [LEASE_MS + 1_000]);
    const { other, taken } = await otherInstance('at-tip');
    atTip = false;
    clock.ahead = LEASE_MS - RENEW_MS;
    away = true;
    await lagging.renew();
    expect(lagging.status().partitions, 'it judges for none of them').toBe(0);
    expect(lost).toHaveLength(PARTITIONS);
    expect(await heldBy('lagging'), 'its leases could not be let go').toBe(PARTITIONS);
    const claimer = async () =>
      (
        await db.query<{ claimed_by: string | null }>(
          'SELECT claimed_by FROM deliveries WHERE device_id = $1 AND cursor = 30',
          [DEVICE],
        )
      )[0]?.claimed_by;
    expect(await claimer(), 'still claimed: nobody else may send it').toBe('lagging');

    // The database back, still behind the tip: its next round writes them away first (no other step of a round
    // behind the tip would), and the instance at the tip takes them with the state.
    away = false;
    await lagging.renew();
    expect(await heldBy('lagging')).toBe(0);
    expect(await claimer(), 'left for the partitions’ next owner').toBeNull();
    await other.renew();
    expect(other.status().partitions).toBe(PARTITIONS);
    expect(taken).toEqual([30]);
  });

  it('a push that fails while its device is being handed over is left for the new owner, not tried again here', async () => {
    const setUp = await fencedInstance();
    await setUp.leases.stop();
    setUp.sender.stop();
    // The retry's write waits until the test lets it go: the hand-over begins while it is under way.
    let letWriteGo: () => void = () => undefined;
    let writing = false;
    const gated: Database = {
      kind: db.kind,
      query: async (text, params) => {
        if (text.includes('SET tries = tries + 1, next_try_at')) {
          writing = true;
          await new Promise<void>((resolve) => (letWriteGo = resolve));
        }
        return db.query(text, params);
      },
      transaction: (work) => db.transaction(work),
      size: () => db.size(),
      within: () => gated,
      close: async () => undefined,
    };
    const tried: string[] = [];
    const failing = (async (_url: string, init: RequestInit) => {
      tried.push(topics.get((init.headers as Record<string, string>)['Topic']!) ?? '?');
      // Failed once; a second try (there must be none from here) would be taken.
      return new Response(null, { status: tried.length === 1 ? 503 : 201 });
    }) as typeof globalThis.fetch;
    const sender = new PushSender({
      db: gated,
      vapid,
      fetch: failing,
      forgotten: async () => undefined,
      takeUpQueued: false,
      retry: { backoffMs: 5, maxBackoffMs: 10 },
    });
    await sender.start();
    const [send] = await storeClaimed('handing', 40);
    sender.enqueue([send!]);
    await eventually('the failed push’s retry to be written', async () => (writing ? true : undefined));
    const handing = sender.handOver((id) => id === DEVICE);
    letWriteGo();
    await handing;
    await sender.idle();
    // Its retry was due within 10 ms: queued again here, it is posted within this grace on a quiet machine (a loaded
    // one may only miss the defect; nothing here can fail because the machine is slow).
    await new Promise((resolve) => setTimeout(resolve, 100));
    await sender.idle();
    expect(tried, 'posted once, then left to the new owner').toEqual(['alert-40']);
    const [row] = await db.query<{ status: string; tries: number }>(
      'SELECT status, tries FROM deliveries WHERE device_id = $1 AND cursor = 40',
      [DEVICE],
    );
    expect(row, 'still queued, its try counted').toMatchObject({ status: 'queued', tries: 1 });
    sender.stop();
  });

  it('an instance whose followers lost the tip keeps its heartbeat, and lets its partitions go with their queued states before its leases run out, to another instance at the tip', async () => {
    for (const leases of running) await leases.stop();
    for (const table of ['deliveries', 'partition_leases', 'instances']) await db.query(`DELETE FROM ${table}`);
    let atTip = true;
    const hooks = (claimed: number[], told: { lost: number[] }, ready = () => true): LeaseHooks => ({
      ready,
      gained: async () => undefined,
      lost: async (parts) => void told.lost.push(...parts),
      claimed: (sends) => void claimed.push(...sends.map((send) => send.cursor)),
      lapsed: async () => undefined,
      renewed: () => undefined,
    });
    const clock = { ahead: 0 };
    const lagged = { lost: [] as number[] };
    const lagging = new PartitionLeases(
      db,
      'lagging',
      hooks([], lagged, () => atTip),
      quiet,
      { now: () => Date.now() + clock.ahead, renewMs: 3_600_000 },
    );
    running.push(lagging);
    await lagging.start();
    expect(lagging.status().partitions).toBe(PARTITIONS);
    await storeClaimed('lagging', 10);
    // Its followers fall behind the node's tip (a slow node, a busy machine): a round soon after the last renewal
    // keeps what it holds (a block being taken is no reason to hand everything over).
    atTip = false;
    await lagging.renew();
    expect(lagging.status().partitions).toBe(PARTITIONS);
    expect(lagged.lost).toEqual([]);
    // Still behind when its leases are about to run out, alone: it keeps judging (nobody else would).
    clock.ahead = LEASE_MS - RENEW_MS;
    await lagging.renew();
    expect(lagging.status().partitions, 'alone, it keeps every partition').toBe(PARTITIONS);
    expect(lagged.lost).toEqual([]);
    // Another instance at the tip comes (the lagging one not counted in the share: it has not been ready for long).
    await db.query(`UPDATE instances SET ready_at = ready_at - $1 WHERE name = 'lagging'`, [LEASE_MS + 1_000]);
    const taken: number[] = [];
    const other = new PartitionLeases(db, 'at-tip', hooks(taken, { lost: [] }), quiet, { renewMs: 3_600_000 });
    running.push(other);
    await other.start();
    expect(other.status().partitions, 'none yet: the lagging one’s leases have not run out').toBe(0);
    // Now it stops judging for their devices and lets them go, before the other may take them as expired (two
    // instances judging one device push each other's states out of order).
    await lagging.renew();
    expect(lagging.fresh(), 'it may still send what it claimed').toBe(true);
    expect(lagging.status().partitions, 'it judges for none of them any more').toBe(0);
    expect([...lagged.lost].sort((a, b) => a - b)).toEqual([...Array(PARTITIONS).keys()]);
    expect(await heldBy('lagging')).toBe(0);
    await other.renew();
    expect(other.status().partitions, 'every partition, its share counted without the lagging one').toBe(PARTITIONS);
    expect(taken, 'the lagging instance’s queued states go with the partitions').toEqual([10]);

    // At the tip again, it takes its share back as a new instance does: the other hands it over.
    atTip = true;
    await lagging.renew();
    await other.renew();
    await lagging.renew();
    expect(lagging.status().partitions + other.status().partitions).toBe(PARTITIONS);
    expect(lagging.status().partitions).toBe(PARTITIONS / 2);
  });
});

/** A device id in the given partition (ids are hashed to partitions). */
function deviceIn(part: number, tag: string): string {
  for (let n = 0; ; n++) {
    const id = `device-${tag}-${String(n).padStart(12, '0')}`.slice(0, 26);
    if (partitionOf(id) === part) return id;
  }
}

const PRINCIPAL = 'ST000000000000000000002AMW42H';

async function storeDevice(id: string): Promise<void> {
  await db.transaction((sql) =>
    putDevice(
      sql,
      {
        id,
        secretHash: 'h',
        subscription: {
          endpoint: `https://fcm.googleapis.com/x/${id}`,
          expirationTime: null,
          keys: { p256dh: 'p', auth: 'a' },
        },
        watches: [{ network: 'testnet', principal: PRINCIPAL, rules: DEFAULT_RULES }],
      },
      1,
    ),
  );
}

const entryFor = (id: string): InboxEntry => ({
  id,
  network: 'testnet',
  principal: PRINCIPAL,
  txId: null,
  phase: 'confirmed',
  title: 't',
  body: 'b',
  path: `/address/${PRINCIPAL}`,
  firstAt: 1,
  at: 1,
  read: false,
  deliveries: [],
  undelivered: true,
});

describe('the leases fence the writes', () => {
  it("a stalled instance's late writes store nothing for the devices another instance took over meanwhile, and all for its own", async () => {
    for (const leases of running) await leases.stop();
    for (const table of ['deliveries', 'alert_states', 'ledgers', 'partition_leases', 'instances'])
      await db.query(`DELETE FROM ${table}`);
    const taken = deviceIn(3, 'taken');
    const kept = deviceIn(20, 'kept');
    for (const id of [taken, kept]) await storeDevice(id);
    const queued: QueuedSend[] = [];
    const stalled = leasesOf('stalled');
    await stalled.leases.start();
    expect(await heldBy('stalled')).toBe(PARTITIONS);
    const writes = new AlertWrites(db, (sends) => queued.push(...sends), 'stalled', leaseFence('stalled', quiet));
    const inbox = (id: string) => new DeviceInbox(db, writes, id, () => 'normal');
    await inbox(taken).change(new Map([['before', () => entryFor('before')]]));

    // It stalls; one of its leases runs out and another instance, alive and at the tip, takes it. The stalled one
    // has not run a round since: it still takes both devices for its own.
    await db.query(`UPDATE partition_leases SET expires_at = 0 WHERE owner = 'stalled' AND part = 3`);
    const other = leasesOf('other');
    await other.leases.start();
    expect(other.gained).toEqual([3]);
    expect(stalled.leases.ownsPartition(3)).toBe(true);

    // It wakes with a batch it judged before the stall: a state and a ledger for each device.
    const [lateTaken, lateKept] = await Promise.all([
      inbox(taken).change(new Map([['late', () => entryFor('late')]])),
      inbox(kept).change(new Map([['late', () => entryFor('late')]])),
    ]);
    const ledger = record(newLedger(PRINCIPAL, 'testnet', 5), 'tx-late', 'confirmed', 40, true);
    await Promise.all([taken, kept].map((id) => new DeviceLedgers(db, writes, id).save([ledger])));
    await writes.idle();
    expect([lateTaken.length, lateKept.length]).toEqual([1, 1]);

    const stored = await db.query<{ device_id: string; alert_id: string; claimed_by: string }>(
      'SELECT device_id, alert_id, claimed_by FROM deliveries ORDER BY device_id, cursor',
    );
    expect(stored.filter((row) => row.device_id === taken).map((row) => row.alert_id)).toEqual(['before']);
    expect(stored.filter((row) => row.device_id === kept).map((row) => [row.alert_id, row.claimed_by])).toEqual([
      ['late', 'stalled'],
    ]);
    expect(queued.map((send) => [send.deviceId === kept ? 'kept' : 'taken', send.alert.id])).toEqual([
      ['taken', 'before'],
      ['kept', 'late'],
    ]);
    const states = await db.query<{ device_id: string; alert_id: string }>(
      'SELECT device_id, alert_id FROM alert_states',
    );
    expect(states.filter((row) => row.device_id === taken).map((row) => row.alert_id)).toEqual(['before']);
    expect((await new DeviceLedgers(db, writes, taken).load()).size).toBe(0);
    expect([...(await new DeviceLedgers(db, writes, kept).load()).values()]).toEqual([ledger]);
  });

  it('a takeover does not wait for a write under way: a frozen writer holds up no lease round', async () => {
    for (const leases of running) await leases.stop();
    for (const table of ['deliveries', 'alert_states', 'ledgers', 'partition_leases', 'instances'])
      await db.query(`DELETE FROM ${table}`);
    const taken = deviceIn(3, 'taken');
    await storeDevice(taken);
    const stalled = leasesOf('stalled');
    await stalled.leases.start();
    // No more rounds of its own (they would renew the lease that runs out below), its leases kept.
    await stalled.leases.halt();
    // Its lease of the device's partition ran out; nobody has taken it yet, so it still writes under it.
    await db.query(`UPDATE partition_leases SET expires_at = 0 WHERE owner = 'stalled' AND part = 3`);
    // Its write stops right after the fence was read, in its transaction, until the test lets it go: a frozen writer.
    let fenceRead: () => void = () => undefined;
    const fenceWasRead = new Promise<void>((resolve) => (fenceRead = resolve));
    let letGo: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (letGo = resolve));
    const gated: Database = {
      kind: db.kind,
      query: (text, params) => db.query(text, params),
      transaction: (work) =>
        db.transaction((sql) =>
          work({
            query: async (text, params) => {
              const rows = await sql.query(text, params);
              if (text.startsWith('SELECT part FROM partition_leases')) {
                fenceRead();
                await gate;
              }
              return rows;
            },
          } as typeof sql),
        ),
      size: () => db.size(),
      within: () => gated,
      close: async () => undefined,
    };
    const writes = new AlertWrites(gated, () => undefined, 'stalled', leaseFence('stalled', quiet));
    const writing = new DeviceInbox(db, writes, taken, () => 'normal').change(
      new Map([['late', () => entryFor('late')]]),
    );
    await fenceWasRead;
    try {
      const other = leasesOf('other');
      await other.leases.start();
      expect(other.gained).toEqual([3]);
    } finally {
      // Let go whatever the checks found: a write left waiting would hold the database's connections.
      letGo();
    }
    await writing;
    // The write read the fence before the takeover: it went in (the at-least-once window), for the new owner to send.
    const stored = await db.query<{ alert_id: string }>('SELECT alert_id FROM deliveries WHERE device_id = $1', [
      taken,
    ]);
    expect(stored.map((row) => row.alert_id)).toEqual(['late']);
  });

  it('a partition another instance held while this one stalled, and handed back before its next round, is judged from storage again', async () => {
    for (const leases of running) await leases.stop();
    for (const table of ['deliveries', 'partition_leases', 'instances']) await db.query(`DELETE FROM ${table}`);
    // Rounds only when the test asks for them.
    const stalled = leasesOf('stalled', { renewMs: 3_600_000 });
    await stalled.leases.start();
    expect(stalled.gained).toHaveLength(PARTITIONS);
    // It stalls past one lease: another instance takes the partition, then stops (letting everything go) before the
    // stalled one runs its next round, which takes the free partition again.
    await db.query(`UPDATE partition_leases SET expires_at = 0 WHERE owner = 'stalled' AND part = 3`);
    const other = leasesOf('other');
    await other.leases.start();
    expect(other.gained).toEqual([3]);
    await other.leases.stop();
    await stalled.leases.renew();
    expect(await heldBy('stalled')).toBe(PARTITIONS);
    // Its devices there were judged by the other meanwhile, and its own writes refused: it stops judging them, then
    // takes them up afresh from what is stored.
    expect(stalled.lost).toEqual([3]);
    expect(stalled.gained.slice(PARTITIONS)).toEqual([3]);
  });

  it('an instance whose hand-over waits on pushes in flight stays alive meanwhile: its heartbeat and leases are renewed', async () => {
    for (const leases of running) await leases.stop();
    for (const table of ['deliveries', 'partition_leases', 'instances']) await db.query(`DELETE FROM ${table}`);
    let handedOver: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (handedOver = resolve));
    let handingOver = false;
    const hooks: LeaseHooks = {
      ready: () => true,
      gained: async () => undefined,
      // The sender's hand-over, waiting for a slow push service to answer what it is posting for these devices.
      lost: async () => {
        handingOver = true;
        await waiting;
      },
      claimed: () => undefined,
      lapsed: async () => undefined,
      renewed: () => undefined,
    };
    const busy = new PartitionLeases(db, 'busy', hooks, quiet, { renewMs: 100 });
    running.push(busy);
    await busy.start();
    expect(await heldBy('busy')).toBe(PARTITIONS);
    // Another instance comes up: at its next round the busy one hands half of the partitions over, and waits.
    await db.query(`INSERT INTO instances (name, seen_at, started_at, ready_at) VALUES ('newcomer', $1, $1, $1)`, [
      Date.now(),
    ]);
    try {
      await eventually('the hand-over to begin', async () => (handingOver ? true : undefined));
      const alive = async () => {
        const [row] = await db.query<{ seen_at: string | number; expires: string | number }>(
          `SELECT i.seen_at, (SELECT min(expires_at) FROM partition_leases WHERE owner = 'busy') AS expires
             FROM instances i WHERE i.name = 'busy'`,
        );
        return { seenAt: Number(row!.seen_at), expires: Number(row!.expires) };
      };
      const when = await alive();
      // Renewed while the hand-over waits, every lease it holds: the others never take it for dead, nor take the
      // partitions it keeps, nor those it hands over before it is done.
      await eventually(
        'its heartbeat and leases renewed while it hands over',
        async () => {
          const now = await alive();
          return now.seenAt > when.seenAt && now.expires > when.expires ? now : undefined;
        },
        30_000,
      );
      expect(await heldBy('busy')).toBe(PARTITIONS);
      expect(busy.status().sending).toBe(true);
    } finally {
      // Failed or not, the hand-over ends: the rounds after it (and the test's clean-up) go on.
      handedOver();
    }
    await eventually('the half handed over let go', async () =>
      (await heldBy('busy')) === PARTITIONS / 2 ? true : undefined,
    );
  });
});
