import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLedger, record } from '../../src/domain/alert-ledger.ts';
import { DEFAULT_RULES } from '../../src/domain/alert-rules.ts';
import { emptySnapshot } from '../../src/domain/snapshot.ts';
import {
  alertsAfter,
  appendAlert,
  dueSends,
  holdDevice,
  KEPT_PER_DEVICE,
  markTold,
  PAGE_SIZE,
  retryLater,
} from '../../src/relay/storage/deliveries.ts';
import { deleteDevice, findDevice, putDevice, watchesOf } from '../../src/relay/storage/devices.ts';
import { DeviceLedgers, SqlSnapshots } from '../../src/relay/storage/engine-stores.ts';
import { migrate, MIGRATIONS } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { tempDir } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const C = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC';
const subscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/x',
  expirationTime: null,
  keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
};
const alert = (id: string, phase: 'pending' | 'confirmed') => ({
  id,
  network: 'testnet' as const,
  principal: B,
  txId: null,
  phase,
  title: 't',
  body: 'b',
  path: `/address/${B}`,
  at: 1,
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
}, 60_000);
afterAll(async () => postgres?.stop());

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`relay storage on ${kind}`, () => {
    let db: Database;
    let remove = async () => undefined as void;
    beforeAll(async () => {
      if (kind === 'pglite') {
        const dir = await tempDir('relay-storage-');
        remove = dir.remove;
        db = await openDatabase({ dataDir: dir.path });
      } else db = await openDatabase({ url: postgres.url });
    }, 60_000);
    afterAll(async () => {
      await db?.close();
      await remove();
    });

    it('migrates once, and again finds nothing to do', async () => {
      expect(await migrate(db)).toBe(MIGRATIONS.length);
      expect(await migrate(db)).toBe(0);
      expect(db.kind).toBe(kind);
    });

    it('creates and replaces a device; another secret hash changes nothing; a kept watch keeps when it was added', async () => {
      const first = await db.transaction((sql) =>
        putDevice(
          sql,
          {
            id: 'device-one-aaaaaaaaaaaaa',
            secretHash: 'h1',
            subscription,
            watches: [{ network: 'testnet', principal: B, rules: DEFAULT_RULES }],
          },
          100,
        ),
      );
      expect(first?.created).toBe(true);
      const second = await db.transaction((sql) =>
        putDevice(
          sql,
          {
            id: 'device-one-aaaaaaaaaaaaa',
            secretHash: 'h1',
            subscription,
            watches: [
              { network: 'testnet', principal: B, rules: { ...DEFAULT_RULES, minimums: { STX: 10n ** 30n } } },
              { network: 'testnet', principal: C, rules: DEFAULT_RULES },
            ],
          },
          200,
        ),
      );
      expect(second?.created).toBe(false);
      const watches = await watchesOf(db, 'device-one-aaaaaaaaaaaaa');
      expect(watches.find((w) => w.principal === B)).toMatchObject({
        addedAt: 100,
        rules: { minimums: { STX: 10n ** 30n } },
      });
      expect(watches.find((w) => w.principal === C)?.addedAt).toBe(200);
      const stranger = await db.transaction((sql) =>
        putDevice(
          sql,
          {
            id: 'device-one-aaaaaaaaaaaaa',
            secretHash: 'other',
            subscription: { ...subscription, endpoint: 'https://fcm.googleapis.com/x2' },
            watches: [],
          },
          300,
        ),
      );
      expect(stranger).toBeNull();
      expect((await findDevice(db, 'device-one-aaaaaaaaaaaaa'))?.subscription.endpoint).toBe(subscription.endpoint);
      expect(await watchesOf(db, 'device-one-aaaaaaaaaaaaa')).toHaveLength(2);
    });

    it('numbers alerts per device, replaces untold states, pages and keeps the last 500', async () => {
      const id = 'device-one-aaaaaaaaaaaaa';
      const pending = await db.transaction((sql) => appendAlert(sql, id, alert('x', 'pending'), 'normal'));
      const confirmed = await db.transaction((sql) => appendAlert(sql, id, alert('x', 'confirmed'), 'high'));
      expect(Number(confirmed.cursor)).toBe(Number(pending.cursor) + 1);
      const due = await dueSends(db, 0, 10);
      expect(due.map((send) => [send.alert.phase, send.urgency])).toEqual([['confirmed', 'high']]);
      await holdDevice(db, id, 5000);
      expect(await dueSends(db, 4999, 10)).toEqual([]);
      await retryLater(db, due[0]!, 6000, false);
      expect((await dueSends(db, 6000, 10))[0]?.tries).toBe(1);
      await markTold(db, due[0]!, 7000);
      expect(await dueSends(db, 10_000, 10)).toEqual([]);

      for (let i = 0; i < KEPT_PER_DEVICE + 20; i++)
        await db.transaction(async (sql) => {
          const added = await appendAlert(sql, id, alert(`y${i}`, 'confirmed'), 'normal');
          await sql.query(`UPDATE deliveries SET status = 'told' WHERE device_id = $1 AND cursor = $2`, [
            id,
            Number(added.cursor),
          ]);
        });
      const first = await alertsAfter(db, id, 0);
      expect(first.alerts).toHaveLength(PAGE_SIZE);
      expect(first.more).toBe(true);
      let total = first.alerts.length;
      let page = first;
      while (page.more) {
        page = await alertsAfter(db, id, Number(page.alerts.at(-1)!.cursor));
        total += page.alerts.length;
      }
      expect(total).toBe(KEPT_PER_DEVICE);
    });

    it('keeps snapshots (bigint, Map) and ledgers; deleting a device forgets its watches, ledgers and alerts', async () => {
      const snapshots = new SqlSnapshots(db);
      snapshots.update(B, 'testnet', (snapshot) => ({
        ...snapshot,
        syncedHeight: 42,
        holdings: { tokens: new Map([['ST1.token::t', 2n ** 70n]]), nfts: new Map(), loadedAt: 1 },
      }));
      await snapshots.saved();
      const again = new SqlSnapshots(db);
      await again.load();
      expect(again.get(B)?.syncedHeight).toBe(42);
      expect(again.get(B)?.holdings?.tokens.get('ST1.token::t')).toBe(2n ** 70n);
      expect(again.get(C)).toBeUndefined();
      expect(emptySnapshot(C, 'testnet').syncedHeight).toBeNull();

      const ledgers = new DeviceLedgers(db, 'device-one-aaaaaaaaaaaaa');
      const ledger = record(newLedger(B, 'testnet', 5), 'tx1', 'confirmed', 40, true);
      // A ledger of an address the device does not watch is not kept.
      await ledgers.save([ledger, newLedger('ST000000000000000000002AMW42H', 'testnet', 5)]);
      expect([...(await ledgers.load()).values()]).toEqual([ledger]);

      expect(await deleteDevice(db, 'device-one-aaaaaaaaaaaaa')).toBe(true);
      expect(await ledgers.load()).toEqual(new Map());
      expect(await watchesOf(db, 'device-one-aaaaaaaaaaaaa')).toEqual([]);
      expect((await alertsAfter(db, 'device-one-aaaaaaaaaaaaa', 0)).alerts).toEqual([]);
      expect(await db.size()).toBeGreaterThan(0);
    });
  });
}
