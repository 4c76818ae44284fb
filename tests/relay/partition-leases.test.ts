/**
 * The partition leases on a real PostgreSQL server, without relays: shares, a quick restart that finds its old leases,
 * a graceful stop that lets everything go at once, a restart's own queued states handed to its sender once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PartitionLeases, type LeaseHooks } from '../../src/relay/cluster/partition-leases.ts';
import { PARTITIONS } from '../../src/relay/cluster/partitions.ts';
import { createLog } from '../../src/relay/log.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
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

/** Leases whose hooks record what they were told. */
function leasesOf(name: string): { leases: PartitionLeases; gained: number[]; lost: number[] } {
  const told = { gained: [] as number[], lost: [] as number[] };
  const hooks: LeaseHooks = {
    ready: () => true,
    gained: async (parts) => void told.gained.push(...parts),
    lost: async (parts) => void told.lost.push(...parts),
    claimed: () => undefined,
  };
  const leases = new PartitionLeases(db, name, hooks, createLog({ write: () => undefined }));
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
    // Killed (its rounds stop, its leases stay); another instance says it is alive; it starts again at once.
    await first.leases.halt();
    await db.query(`INSERT INTO instances (name, seen_at, started_at) VALUES ('b', $1, $1)`, [Date.now()]);
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
    };
    const restarted = new PartitionLeases(db, 'c', hooks, createLog({ write: () => undefined }));
    running.push(restarted);
    await restarted.start();
    expect(claimed, 'each state handed to the sender once').toEqual([1]);
  });
});
