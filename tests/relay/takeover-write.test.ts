/**
 * Two instances writing one device's states at once, as a takeover under way allows (the old owner passed its fence
 * before the new one took the lease): the new owner's newer state of an alert waits for the old owner's write to
 * commit, and then supersedes the older state it queued. Left queued, that older state would be pushed after the
 * newer one (the push service keeps the last under the Topic), and again whenever queued states are read back.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { AlertWrites, type WriteFence } from '../../src/relay/storage/alert-writes.ts';
import { appendClaimed } from '../../src/relay/storage/deliveries.ts';
import { DeviceInbox } from '../../src/relay/storage/device-alert-stores.ts';
import { putDevice } from '../../src/relay/storage/devices.ts';
import { migrate } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { eventually } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const DEVICE = 'device-takeover-aaaaaaaa';
const ALERT = `tx:testnet:${B}:0x01`;
const alert = (phase: 'pending' | 'confirmed') => ({
  id: ALERT,
  network: 'testnet' as const,
  principal: B,
  txId: '0x01',
  phase,
  title: phase,
  body: 'b',
  path: `/address/${B}`,
  at: 1,
});

let postgres: RunningPostgres;
let db: Database;
beforeAll(async () => {
  postgres = await startPostgres();
  db = await openDatabase({ url: postgres.url });
  await migrate(db);
  await db.transaction((sql) =>
    putDevice(
      sql,
      {
        id: DEVICE,
        secretHash: 'h',
        subscription: {
          endpoint: 'https://fcm.googleapis.com/fcm/send/x',
          expirationTime: null,
          keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
        },
        watches: [{ network: 'testnet', principal: B, rules: DEFAULT_RULES }],
      },
      100,
    ),
  );
});
afterAll(async () => {
  await db?.close();
  await postgres?.stop();
});

it("supersedes an older state that another instance's write, waiting to commit, queued", async () => {
  // The old owner: its pending state written, its transaction not yet committed (a stalled process).
  let commit!: () => void;
  let written!: () => void;
  const stalled = new Promise<void>((resolve) => (written = resolve));
  const old = db.transaction(async (sql) => {
    await appendClaimed(sql, [{ deviceId: DEVICE, alert: alert('pending'), urgency: 'normal' }], 'old-owner');
    written();
    await new Promise<void>((resolve) => (commit = resolve));
  });
  await stalled;
  // The new owner, its fence letting it write for the device, stores the confirmed state of the same alert.
  const everyone: WriteFence = { allowed: async (_sql, ids) => new Set(ids), owner: 'new-owner', holds: () => 'TRUE' };
  const writes = new AlertWrites(db, () => undefined, 'new-owner', everyone);
  const inbox = new DeviceInbox(db, writes, DEVICE, () => 'normal');
  const confirmed = inbox.change(
    new Map([[ALERT, () => ({ ...alert('confirmed'), firstAt: 1, read: false, deliveries: [], undelivered: true })]]),
  );
  await eventually('the new owner to wait for the old owner’s lock', async () => {
    const [row] = await db.query<{ waiting: number }>(
      "SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock'",
    );
    return row && row.waiting > 0 ? true : undefined;
  });
  commit();
  await old;
  await confirmed;
  const rows = await db.query<{ cursor: string; phase: string; status: string; claimed_by: string }>(
    'SELECT cursor::text, phase, status, claimed_by FROM deliveries WHERE device_id = $1 ORDER BY cursor',
    [DEVICE],
  );
  expect(rows).toEqual([
    { cursor: '1', phase: 'pending', status: 'superseded', claimed_by: 'old-owner' },
    { cursor: '2', phase: 'confirmed', status: 'queued', claimed_by: 'new-owner' },
  ]);
});
