import { emptyDataDir } from './pglite-template.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newLedger, record } from '../../src/domain/alerts/alert-ledger.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { emptySnapshot } from '../../src/domain/state/snapshot.ts';
import { AlertWrites } from '../../src/relay/storage/alert-writes.ts';
import {
  alertsAfter,
  appendAlerts,
  holdDevice,
  KEPT_PER_DEVICE,
  markTold,
  PAGE_SIZE,
  queuedSends,
  retryAt,
  type QueuedSend,
  type RelayAlert,
  type Urgency,
} from '../../src/relay/storage/deliveries.ts';
import { deleteDevice, findDevice, putDevice, watchesOf } from '../../src/relay/storage/devices.ts';
import { DeviceInbox, DeviceLedgers, readDeviceStates } from '../../src/relay/storage/device-alert-stores.ts';
import { SqlAnchors } from '../../src/relay/storage/sql-facts.ts';
import { SqlSnapshots } from '../../src/relay/storage/sql-snapshots.ts';
import { migrate, MIGRATIONS } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database, type Sql } from '../../src/relay/storage/sql.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

const B = 'ST2CY5V39NHDPWSXMW9QDT3HC3GD6Q6XX4CFRK9AG';
const C = 'ST2JHG361ZXG51QTKY2NQCVBPPRRE2KZB1HR05NNC';
const subscription = {
  endpoint: 'https://fcm.googleapis.com/fcm/send/x',
  expirationTime: null,
  keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
};
/** A device watching `principals` on testnet with the default rules. */
const registerDevice = (db: Database, id: string, principals: readonly string[]) =>
  db.transaction((sql) =>
    putDevice(
      sql,
      {
        id,
        secretHash: 'h',
        subscription,
        watches: principals.map((principal) => ({ network: 'testnet' as const, principal, rules: DEFAULT_RULES })),
      },
      100,
    ),
  );
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

const appendOne = async (db: Database, deviceId: string, given: Omit<RelayAlert, 'cursor'>, urgency: Urgency) => {
  const [stored] = await db.transaction((sql) => appendAlerts(sql, [{ deviceId, alert: given, urgency }]));
  if (!stored) throw new Error(`${deviceId} is gone`);
  return stored;
};
const entryOf = (given: Omit<RelayAlert, 'cursor'>) => ({
  ...given,
  firstAt: given.at,
  read: false,
  deliveries: [],
  undelivered: true,
});

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => postgres?.stop());

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`relay storage on ${kind}`, () => {
    let db: Database;
    let remove = async () => undefined as void;
    beforeAll(async () => {
      if (kind === 'pglite') {
        const dir = await emptyDataDir('relay-storage-');
        remove = dir.remove;
        db = await openDatabase({ dataDir: dir.path });
      } else db = await openDatabase({ url: postgres.url });
    });
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
      const pending = await appendOne(db, id, alert('x', 'pending'), 'normal');
      const confirmed = await appendOne(db, id, alert('x', 'confirmed'), 'high');
      expect(Number(confirmed.cursor)).toBe(Number(pending.cursor) + 1);
      const due = await queuedSends(db);
      expect(due.map((send) => [send.alert.phase, send.urgency, send.notBefore])).toEqual([['confirmed', 'high', 0]]);
      await holdDevice(db, id, 5000);
      expect((await queuedSends(db))[0]?.notBefore).toBe(5000);
      await retryAt(db, due[0]!, 6000, '503');
      expect(await queuedSends(db)).toMatchObject([{ tries: 1, notBefore: 6000 }]);
      await markTold(db, due, 7000);
      expect(await queuedSends(db)).toEqual([]);

      // 520 told states, 20 to a transaction, each batch told before the next one prunes the log (one state to a
      // transaction, 1,040 transactions took 17 s on PGlite and proved nothing more).
      const batch = 20;
      for (let start = 0; start < KEPT_PER_DEVICE + 20; start += batch) {
        const added = await db.transaction((sql) =>
          appendAlerts(
            sql,
            Array.from({ length: batch }, (_, i) => ({
              deviceId: id,
              alert: alert(`y${start + i}`, 'confirmed'),
              urgency: 'normal' as const,
            })),
          ),
        );
        await markTold(
          db,
          added.map((stored) => ({ deviceId: id, cursor: Number(stored!.cursor) })),
          8000,
        );
      }
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
      // A catch-up from before the kept log is told which addresses it missed; one from within it is not.
      expect(first.missed).toEqual([{ network: 'testnet', principal: B }]);
      const oldestKept = Number(first.alerts[0]!.cursor);
      expect((await alertsAfter(db, id, oldestKept - 2)).missed).toEqual([{ network: 'testnet', principal: B }]);
      expect((await alertsAfter(db, id, oldestKept - 1)).missed).toEqual([]);
    });

    it("keeps each node's resume anchor, stored after the snapshots read before it", async () => {
      const snapshots = new SqlSnapshots(db);
      const anchors = new SqlAnchors(db, snapshots);
      const anchor = { height: 77, indexHash: `0x${'ab'.repeat(32)}` };
      snapshots.update(C, 'testnet', (snapshot) => ({ ...snapshot, syncedHeight: 77 }));
      anchors.of('http://127.0.0.1:3999').set(anchor);
      await anchors.saved();
      const [progress] = await db.query<{ synced_height: number | string }>(
        'SELECT synced_height FROM progress WHERE principal = $1',
        [C],
      );
      expect(Number(progress?.synced_height)).toBe(77);
      const again = new SqlAnchors(db, new SqlSnapshots(db));
      await again.load();
      expect(again.of('http://127.0.0.1:3999').get()).toEqual(anchor);
      expect(again.of('http://127.0.0.1:4000').get()).toBeNull();
      await snapshots.forget([C]);
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

      const writes = new AlertWrites(db, () => undefined);
      const ledgers = new DeviceLedgers(db, writes, 'device-one-aaaaaaaaaaaaa');
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

    it("writes many devices' states in one transaction: each gets exactly its own, numbered in order", async () => {
      const ids = Array.from({ length: 30 }, (_, i) => `device-batch-${String(i).padStart(10, '0')}`);
      for (const id of ids) await registerDevice(db, id, [B]);
      const queued: QueuedSend[] = [];
      const writes = new AlertWrites(db, (sends) => queued.push(...sends));
      const inboxes = ids.map((id) => new DeviceInbox(db, writes, id, () => 'normal'));
      const ledgers = ids.map((id) => new DeviceLedgers(db, writes, id));
      // Three ticks' worth for every device, handed over at once (as one block reaches every watcher).
      const told = await Promise.all(
        inboxes.map(async (inbox, d) => {
          const mine = [0, 1, 2].map((n) => alert(`${ids[d]}-alert-${n}`, n === 2 ? 'pending' : 'confirmed'));
          const written = await inbox.change(new Map(mine.map((given) => [given.id, () => entryOf(given)])));
          await ledgers[d]!.save([record(newLedger(B, 'testnet', 5), `${ids[d]}-tx`, 'confirmed', 40, true)]);
          return written.map((entry) => entry.id);
        }),
      );
      expect(told.map((alertIds) => alertIds.length)).toEqual(ids.map(() => 3));
      for (const id of ids) {
        const mine = queued.filter((send) => send.deviceId === id);
        expect(mine.map((send) => send.alert.id)).toEqual([0, 1, 2].map((n) => `${id}-alert-${n}`));
        expect(mine.map((send) => send.cursor)).toEqual([1, 2, 3]);
        const listed = (await alertsAfter(db, id, 0)).alerts;
        expect(listed.map((given) => [given.cursor, given.id])).toEqual(
          mine.map((send) => [String(send.cursor), send.alert.id]),
        );
      }
      expect(await new DeviceLedgers(db, writes, ids[0]!).load()).toEqual(
        new Map([[`testnet:${B}`, record(newLedger(B, 'testnet', 5), `${ids[0]}-tx`, 'confirmed', 40, true)]]),
      );
      // An inbox read afresh holds what was written, read alone or with every device's at once (on start).
      const again = new DeviceInbox(db, writes, ids[3]!, () => 'normal');
      await again.load();
      expect(again.get(`${ids[3]}-alert-2`)?.phase).toBe('pending');
      const stored = await readDeviceStates(db, [ids[3]!, 'device-none-aaaaaaaaaaaa']);
      expect(stored.get('device-none-aaaaaaaaaaaa')).toEqual({ ledgers: [], states: [] });
      const preloaded = new DeviceInbox(db, writes, ids[3]!, () => 'normal', stored.get(ids[3]!)?.states);
      await preloaded.load();
      expect(preloaded.list()).toEqual(again.list());
      expect(await new DeviceLedgers(db, writes, ids[3]!, stored.get(ids[3]!)?.ledgers).load()).toEqual(
        await new DeviceLedgers(db, writes, ids[3]!).load(),
      );

      // A newer state of the same alert, in the same batch as more of another device's: cursors only grow, the
      // older untold state is superseded.
      await Promise.all([
        inboxes[0]!.change(new Map([[`${ids[0]}-alert-2`, () => entryOf(alert(`${ids[0]}-alert-2`, 'confirmed'))]])),
        inboxes[1]!.change(new Map([[`${ids[1]}-alert-9`, () => entryOf(alert(`${ids[1]}-alert-9`, 'confirmed'))]])),
      ]);
      const waiting = (await queuedSends(db)).filter((send) => send.deviceId === ids[0]);
      expect(waiting.map((send) => [send.cursor, send.alert.id, send.alert.phase])).toEqual([
        [1, `${ids[0]}-alert-0`, 'confirmed'],
        [2, `${ids[0]}-alert-1`, 'confirmed'],
        [4, `${ids[0]}-alert-2`, 'confirmed'],
      ]);
      expect(queued.filter((send) => send.deviceId === ids[1]).map((send) => send.cursor)).toEqual([1, 2, 3, 4]);
      await Promise.all(ids.map((id) => deleteDevice(db, id)));
    });

    it("loses no other device's states when one is deleted while its batch is gathered", async () => {
      const ids = ['device-gone-aaaaaaaaaaaa', 'device-stays-aaaaaaaaaaa', 'device-stays-bbbbbbbbbbb'];
      for (const id of ids) await registerDevice(db, id, []);
      const queued: QueuedSend[] = [];
      const writes = new AlertWrites(db, (sends) => queued.push(...sends));
      const changes = ids.map((id) =>
        new DeviceInbox(db, writes, id, () => 'high').change(
          new Map([[`${id}-a`, () => entryOf(alert(`${id}-a`, 'confirmed'))]]),
        ),
      );
      // Deleted after its state was handed over, usually before the batch is written (the next turn of the event loop);
      // on a busy PostgreSQL the batch may commit first, and its send for the deleted device is then queued once.
      await deleteDevice(db, ids[0]!);
      await Promise.all(changes);
      expect(
        queued.filter((send) => send.deviceId !== ids[0]).map((send) => [send.deviceId, send.cursor, send.urgency]),
      ).toEqual([
        [ids[1], 1, 'high'],
        [ids[2], 1, 'high'],
      ]);
      expect(queued.filter((send) => send.deviceId === ids[0]).length).toBeLessThanOrEqual(1);
      expect((await alertsAfter(db, ids[0]!, 0)).alerts).toEqual([]);
      expect((await alertsAfter(db, ids[2]!, 0)).alerts.map((given) => given.id)).toEqual([`${ids[2]}-a`]);
      await Promise.all(ids.map((id) => deleteDevice(db, id)));
    });

    if (kind === 'postgres')
      it("stores a block's states while the previous block's ledgers are still being written", async () => {
        const id = 'device-lanes-aaaaaaaaaaa';
        await registerDevice(db, id, [B]);
        // The ledgers' statement waits until the test lets it go, a transaction (and its connection) open meanwhile.
        let ledgersWaiting = () => undefined as void;
        const waiting = new Promise<void>((resolve) => (ledgersWaiting = resolve));
        let letGo = () => undefined as void;
        const gate = new Promise<void>((resolve) => (letGo = resolve));
        const held = async <Row>(sql: Sql, text: string, params?: readonly unknown[]) => {
          if (text.includes('INSERT INTO ledgers')) {
            ledgersWaiting();
            await gate;
          }
          return sql.query<Row>(text, params);
        };
        const gated: Database = {
          ...db,
          query: (text, params) =>
            text.includes('INSERT INTO ledgers')
              ? db.transaction((sql) => held(sql, text, params))
              : db.query(text, params),
          transaction: (work) => db.transaction((sql) => work({ query: (text, params) => held(sql, text, params) })),
          // The writes run on the alert path: there too.
          within: () => gated,
        };
        const queued: QueuedSend[] = [];
        const writes = new AlertWrites(gated, (sends) => queued.push(...sends));
        const ledger = record(newLedger(B, 'testnet', 5), 'lanes-tx', 'confirmed', 40, true);
        const ledgerSaved = writes.saveLedgers(id, [ledger]);
        await waiting;
        const given = alert('lanes-alert', 'confirmed');
        const [stored] = await writes.append(id, [{ entry: entryOf(given), alert: given, urgency: 'high' }]);
        expect(stored?.cursor).toBe('1');
        expect(queued.map((send) => send.alert.id)).toEqual(['lanes-alert']);
        letGo();
        await ledgerSaved;
        await writes.idle();
        expect(await new DeviceLedgers(db, writes, id).load()).toEqual(new Map([[`testnet:${B}`, ledger]]));
        await deleteDevice(db, id);
      });

    it("forgets an alert's state once its deliveries left the kept log", async () => {
      const id = 'device-prune-aaaaaaaaaaa';
      await registerDevice(db, id, []);
      const writes = new AlertWrites(db, () => undefined);
      const inbox = new DeviceInbox(db, writes, id, () => 'normal');
      const each = 50;
      for (let start = 0; start < KEPT_PER_DEVICE + 200; start += each)
        await inbox.change(
          new Map(
            Array.from({ length: each }, (_, i) => {
              const given = alert(`old-${start + i}`, 'confirmed');
              return [given.id, () => entryOf(given)] as const;
            }),
          ),
        );
      const [row] = await db.query<{ n: number | string }>(
        'SELECT count(*) AS n FROM alert_states WHERE device_id = $1',
        [id],
      );
      expect(Number(row?.n)).toBe(KEPT_PER_DEVICE);
      expect(inbox.get('old-0')).toBeUndefined();
      expect(inbox.get(`old-${KEPT_PER_DEVICE + 199}`)?.phase).toBe('confirmed');
      expect(inbox.list().length).toBeLessThanOrEqual(KEPT_PER_DEVICE * 1.2);
      await deleteDevice(db, id);
    });
  });
}
