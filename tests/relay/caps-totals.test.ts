import { emptyDataDir } from './pglite-template.ts';
import { randomBytes } from 'node:crypto';
import { c32address } from 'c32check';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { derivedHex, SeededRandom } from '../../mocks/devnet/random.ts';
import { DEFAULT_RULES } from '../../src/domain/alerts/alert-rules.ts';
import { DEFAULT_CAPS, RegistrationGuard } from '../../src/relay/api/caps.ts';
import { deleteDevice, deleteDeviceAt, deleteExpiredDevices, putDevice } from '../../src/relay/storage/devices.ts';
import { migrate, MIGRATIONS, statementsOf } from '../../src/relay/storage/migrations.ts';
import { openDatabase, type Database } from '../../src/relay/storage/sql.ts';
import { checkLostVapidKey } from '../../src/relay/push/vapid-lost-key.ts';
import { createLog } from '../../src/relay/log.ts';
import { tempDir } from './harness.ts';
import { startPostgres, type RunningPostgres } from './postgres-server.ts';

/**
 * The caps read the relay's totals (devices, distinct principals) from rows the database keeps as the watches change,
 * instead of counting every watch at each registration. Whatever changes the rows (a registration through the caps,
 * a list edited, a delete, a push service's end of a subscription, the idle sweep) and however many do it at once, the
 * totals must equal what a count of the rows says: that count is the oracle.
 */

const subscription = (endpoint: string) => ({
  endpoint,
  expirationTime: null,
  keys: { p256dh: 'p'.repeat(87), auth: 'a'.repeat(22) },
});

/** What the kept totals say, and what counting the rows says. */
async function totalsAndCount(db: Database) {
  const [kept] = await db.query<{ devices: string | number; principals: string | number }>(
    'SELECT devices, principals FROM relay_totals',
  );
  const [counted] = await db.query<{ devices: string | number; principals: string | number }>(
    `SELECT (SELECT count(*) FROM devices) AS devices,
            (SELECT count(*) FROM (SELECT DISTINCT network, principal FROM watches) AS p) AS principals`,
  );
  const wrongFollowers = await db.query(
    `SELECT coalesce(f.network, w.network) AS network, coalesce(f.principal, w.principal) AS principal
       FROM followed f FULL JOIN (SELECT network, principal, count(*) AS n FROM watches GROUP BY network, principal) w
         ON w.network = f.network AND w.principal = f.principal
      WHERE f.devices IS DISTINCT FROM w.n`,
  );
  return {
    kept: { devices: Number(kept?.devices), principals: Number(kept?.principals) },
    counted: { devices: Number(counted?.devices), principals: Number(counted?.principals) },
    wrongFollowers: wrongFollowers.length,
  };
}

/**
 * One generated change to the devices, what a relay's routes, its sender and its sweep do: every choice is made before
 * it runs, so a seed replays the same changes however the ones run at once interleave.
 */
function randomChange(
  random: SeededRandom,
  pool: readonly string[],
): (db: Database, guard: RegistrationGuard, alone: boolean) => Promise<string | null | undefined> {
  const id = `device-${random.int(0, 11)}`;
  const roll = random.int(0, 9);
  if (roll < 6) {
    // A registration or an edit of its list, through the caps, as the device route makes it.
    const principals = [...new Set(Array.from({ length: random.int(0, 6) }, () => random.pick(pool)))];
    const watches = principals.map((principal) => ({
      network: random.pick(['testnet', 'mainnet'] as const),
      principal,
      rules: DEFAULT_RULES,
    }));
    const client = `127.0.0.${random.int(1, 3)}`;
    const endpoint = `https://push.example/${random.int(0, 1)}`;
    const now = random.int(1, 100);
    return async (db, guard, alone) => {
      const exists = (await db.query('SELECT 1 FROM devices WHERE id = $1', [id])).length > 0;
      // Run alone, the caps' decision is checked against counting the rows, as the caps did before they were kept.
      const expected = alone ? await countedRefusal(db, id, exists, watches) : undefined;
      const answer = await guard.register({ id, client, exists, watches }, 1_000 + now, (sql) =>
        putDevice(sql, { id, secretHash: 'h', subscription: subscription(endpoint), watches }, now),
      );
      const refused = 'refused' in answer ? answer.refused.code : null;
      if (expected !== undefined) expect(refused, `${id} registering ${watches.length} watches`).toBe(expected);
      return refused;
    };
  }
  if (roll === 6)
    return async (db) => {
      await db.transaction((sql) => deleteDevice(sql, id));
      return undefined;
    };
  if (roll === 7) {
    const endpoint = `https://push.example/${random.int(0, 1)}`;
    return async (db) => {
      await db.transaction((sql) => deleteDeviceAt(sql, id, endpoint));
      return undefined;
    };
  }
  if (roll === 8) {
    const idle = 100 - random.int(1, 60);
    return async (db) => {
      await db.transaction((sql) => deleteExpiredDevices(sql, 100, idle));
      return undefined;
    };
  }
  const seen = random.int(1, 100);
  return async (db) => {
    await db.query('UPDATE devices SET seen_at = $2 WHERE id = $1', [id, seen]);
    return undefined;
  };
}

/** Small caps, reached often by the generated changes: a pool of 15 principals on two networks, 12 device ids. */
const CAPS = { ...DEFAULT_CAPS, devicesPerClientPerHour: 1_000_000, devices: 5, principals: 10 };

/** The caps' decision for a registration from counting every row, as the caps made it before the totals were kept. */
async function countedRefusal(
  db: Database,
  id: string,
  exists: boolean,
  watches: readonly { network: string; principal: string }[],
): Promise<string | null> {
  const [devices] = await db.query<{ n: string | number }>('SELECT count(*) AS n FROM devices');
  if (!exists && Number(devices?.n) >= CAPS.devices) return 'relay_full_devices';
  const listed = [watches.map((watch) => watch.network), watches.map((watch) => watch.principal)];
  const [fresh] = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS listed(network, principal)
      WHERE NOT EXISTS (SELECT 1 FROM watches w WHERE w.network = listed.network AND w.principal = listed.principal)`,
    listed,
  );
  if (Number(fresh?.n) === 0) return null;
  const [union] = await db.query<{ n: string | number }>(
    `SELECT count(*) AS n FROM (SELECT network, principal FROM watches WHERE device_id <> $1
       UNION SELECT * FROM unnest($2::text[], $3::text[])) AS followed`,
    [id, ...listed],
  );
  return Number(union?.n) > CAPS.principals ? 'relay_full_principals' : null;
}

let postgres: RunningPostgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(async () => postgres?.stop());

for (const kind of ['pglite', 'postgres'] as const) {
  describe(`the relay's totals on ${kind}`, () => {
    let db: Database;
    let remove = async () => undefined as void;
    beforeAll(async () => {
      if (kind === 'pglite') {
        const dir = await emptyDataDir('relay-totals-');
        remove = dir.remove;
        db = await openDatabase({ dataDir: dir.path });
      } else db = await openDatabase({ url: `${postgres.url}` });
    });
    afterAll(async () => {
      await db?.close();
      await remove();
    });

    it('are counted from the rows already there when the step that keeps them is applied', async () => {
      await db.query(
        'CREATE TABLE IF NOT EXISTS relay_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)',
      );
      // The schema as it was one step before: devices and watches written without the totals.
      for (const [index, step] of MIGRATIONS.slice(0, -1).entries()) {
        for (const statement of statementsOf(step)) await db.query(statement);
        await db.query('INSERT INTO relay_migrations (version, applied_at) VALUES ($1, 0)', [index + 1]);
      }
      for (const [id, principals] of [
        ['old-1', ['SP1', 'SP2']],
        ['old-2', ['SP2', 'SP3', 'SP4']],
        ['old-3', []],
      ] as const)
        await db.transaction((sql) =>
          putDevice(
            sql,
            {
              id,
              secretHash: 'h',
              subscription: subscription('https://push.example/0'),
              watches: principals.map((principal) => ({ network: 'mainnet', principal, rules: DEFAULT_RULES })),
            },
            1,
          ),
        );
      expect(await migrate(db)).toBe(1);
      const { kept, counted, wrongFollowers } = await totalsAndCount(db);
      expect(kept).toEqual({ devices: 3, principals: 4 });
      expect(counted).toEqual(kept);
      expect(wrongFollowers).toBe(0);
    });

    it('stay equal to a count of the rows through generated registrations, edits, deletes and sweeps', async () => {
      const seed = process.env['TOTALS_SEED'] ?? randomBytes(4).toString('hex');
      onTestFailed(() => console.error(`relay totals: seed ${seed} (TOTALS_SEED=${seed} repeats it)`));
      const random = new SeededRandom(seed);
      const pool = Array.from({ length: 15 }, (_, i) => c32address(26, derivedHex(seed, `p/${i}`).slice(0, 40)));
      const guard = new RegistrationGuard(db, CAPS);
      const refusals = new Map<string, number>();
      for (let step = 0; step < 150; step++) {
        // On PostgreSQL several changes at once, as several requests and instances make them: the totals row is
        // locked first by every writer, so none deadlocks and none counts from a stale total.
        const changes = Array.from({ length: kind === 'postgres' ? random.int(1, 6) : 1 }, () =>
          randomChange(random, pool),
        );
        const answers = await Promise.all(changes.map((change) => change(db, guard, changes.length === 1)));
        for (const answer of answers)
          if (typeof answer === 'string') refusals.set(answer, (refusals.get(answer) ?? 0) + 1);
        const { kept, counted, wrongFollowers } = await totalsAndCount(db);
        expect(kept, `after step ${step}`).toEqual(counted);
        expect(wrongFollowers, `principals whose watchers are miscounted after step ${step}`).toBe(0);
      }
      // The generated changes reach both caps: the decisions above were not all "stored".
      expect(refusals.get('relay_full_devices') ?? 0).toBeGreaterThan(0);
      expect(refusals.get('relay_full_principals') ?? 0).toBeGreaterThan(0);
      // The VAPID key lost for good: every device is forgotten at once, and the totals say so.
      const registered = (await totalsAndCount(db)).counted.devices;
      const keyless = await tempDir('relay-keyless-');
      try {
        await checkLostVapidKey(db, keyless.path, registered, createLog({ write: () => undefined }));
      } finally {
        await keyless.remove();
      }
      expect(await totalsAndCount(db)).toEqual({
        kept: { devices: 0, principals: 0 },
        counted: { devices: 0, principals: 0 },
        wrongFollowers: 0,
      });
    });
  });
}
