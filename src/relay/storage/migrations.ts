import type { Database } from './sql.ts';

/**
 * The schema, one step per version, applied in order inside a transaction each; never edit a step once released,
 * add the next one. Amounts, heights, times and cursors are bigint columns; engine state is stored as tagged JSON
 * text (codec.ts), the same shape the page keeps in IndexedDB.
 */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE devices (
     id text PRIMARY KEY,
     secret_hash text NOT NULL,
     endpoint text NOT NULL,
     p256dh text NOT NULL,
     auth text NOT NULL,
     expiration_time bigint,
     created_at bigint NOT NULL,
     updated_at bigint NOT NULL,
     last_cursor bigint NOT NULL DEFAULT 0
   );
   CREATE TABLE watches (
     device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     network text NOT NULL,
     principal text NOT NULL,
     rules text NOT NULL,
     added_at bigint NOT NULL,
     PRIMARY KEY (device_id, network, principal)
   );
   CREATE INDEX watches_by_principal ON watches (network, principal);
   CREATE TABLE progress (
     network text NOT NULL,
     principal text NOT NULL,
     synced_height bigint,
     snapshot text NOT NULL,
     PRIMARY KEY (network, principal)
   );
   CREATE TABLE ledgers (
     device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     network text NOT NULL,
     principal text NOT NULL,
     ledger text NOT NULL,
     PRIMARY KEY (device_id, network, principal)
   );
   CREATE TABLE alert_states (
     device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     alert_id text NOT NULL,
     entry text NOT NULL,
     PRIMARY KEY (device_id, alert_id)
   );
   CREATE TABLE deliveries (
     device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     cursor bigint NOT NULL,
     alert_id text NOT NULL,
     phase text NOT NULL,
     urgency text NOT NULL,
     alert text NOT NULL,
     status text NOT NULL DEFAULT 'queued',
     tries integer NOT NULL DEFAULT 0,
     next_try_at bigint NOT NULL DEFAULT 0,
     told_at bigint,
     PRIMARY KEY (device_id, cursor)
   );
   CREATE INDEX deliveries_queued ON deliveries (next_try_at) WHERE status = 'queued';
   CREATE TABLE facts (
     kind text NOT NULL,
     key text NOT NULL,
     value text NOT NULL,
     PRIMARY KEY (kind, key)
   );`,
  // Batched writes: the supersede step finds a device's queued states of an alert by index; an alert's state
  // remembers the cursor of its latest delivery, so states of alerts older than the kept log can be pruned.
  `CREATE INDEX deliveries_queued_by_alert ON deliveries (device_id, alert_id) WHERE status = 'queued';
   ALTER TABLE alert_states ADD COLUMN cursor bigint NOT NULL DEFAULT 0;
   UPDATE alert_states s SET cursor = q.cursor
     FROM (SELECT device_id, alert_id, max(cursor) AS cursor FROM deliveries GROUP BY device_id, alert_id) q
    WHERE q.device_id = s.device_id AND q.alert_id = s.alert_id;
   CREATE INDEX alert_states_by_cursor ON alert_states (device_id, cursor);`,
  // Operations: why a state was given up (the dead-letter list shows it), when, and when an operator sent it again
  // (its retries count from then); per device and principal, the
  // newest cursor pruned from the kept log, so a catch-up from before it is told which addresses it missed.
  `ALTER TABLE deliveries ADD COLUMN answer text;
   ALTER TABLE deliveries ADD COLUMN failed_at bigint;
   ALTER TABLE deliveries ADD COLUMN redriven_at bigint;
   CREATE INDEX deliveries_failed ON deliveries (failed_at) WHERE status = 'failed';
   CREATE TABLE pruned (
     device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     network text NOT NULL,
     principal text NOT NULL,
     upto bigint NOT NULL,
     PRIMARY KEY (device_id, network, principal)
   );`,
  // Caps a stranger cannot get round: when each device last checked in (a PUT or a catch-up; a device idle past
  // the limit expires), and how many principals each device added when, for its new principals per hour.
  `ALTER TABLE devices ADD COLUMN seen_at bigint;
   UPDATE devices SET seen_at = updated_at;
   ALTER TABLE devices ALTER COLUMN seen_at SET NOT NULL;
   CREATE INDEX devices_by_seen ON devices (seen_at);
   CREATE INDEX devices_by_expiration ON devices (expiration_time) WHERE expiration_time IS NOT NULL;
   CREATE TABLE principal_additions (
     device_id text NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
     at bigint NOT NULL,
     added integer NOT NULL
   );
   CREATE INDEX principal_additions_by_device ON principal_additions (device_id, at);`,
  // Several instances on one PostgreSQL (docs/relay-at-scale.md): each follows the chain itself, so its snapshots are
  // its own ('' on the embedded database); each instance's heartbeat; the partitions of the devices, each leased to
  // one instance; a queued delivery claimed by the instance that sends it; a device's 429 hold, seen by every instance.
  `ALTER TABLE progress ADD COLUMN instance text NOT NULL DEFAULT '';
   ALTER TABLE progress DROP CONSTRAINT progress_pkey;
   ALTER TABLE progress ADD PRIMARY KEY (instance, network, principal);
   CREATE TABLE instances (
     name text PRIMARY KEY,
     seen_at bigint NOT NULL,
     started_at bigint NOT NULL
   );
   CREATE TABLE partition_leases (
     part integer PRIMARY KEY,
     owner text NOT NULL,
     expires_at bigint NOT NULL
   );
   ALTER TABLE deliveries ADD COLUMN claimed_by text;
   CREATE INDEX deliveries_queued_by_claimer ON deliveries (claimed_by) WHERE status = 'queued';
   ALTER TABLE devices ADD COLUMN held_until bigint NOT NULL DEFAULT 0;`,
  // New devices per client address per hour, counted in the database so that every instance and a restart see the
  // same hour: one row per device created, naming its client by a keyed hash (api/client-hash.ts), never the address;
  // rows an hour old are deleted as new devices arrive and by the hourly sweep.
  `CREATE TABLE device_additions (
     client text NOT NULL,
     at bigint NOT NULL
   );
   CREATE INDEX device_additions_by_client ON device_additions (client, at);
   CREATE INDEX device_additions_by_at ON device_additions (at);`,
  // An instance's heartbeat (seen_at) says it is alive and sends what it claimed; ready_at, renewed with it while its
  // followers have the chain's tip, says it also takes a share of the partitions. One whose node is away keeps its
  // claims (it can still push) and is left out of the share count (the others take its partitions).
  `ALTER TABLE instances ADD COLUMN ready_at bigint`,
  // What the caps count, kept as the watches change instead of counted at each registration (a count of every watch,
  // under a lock every registration takes, made registering O(watches): hours for 100,000 devices). `followed` holds
  // each principal with how many devices watch it; `relay_totals` the number of devices and of principals. Triggers
  // keep both, once per statement (a registration's few statements, the sweep's one), in the transaction that changes
  // the rows, whatever changes them. Each locks the totals row before any `followed` row, so writers never take those
  // locks in two orders. The tables are locked while the step counts what is there: an instance still running the
  // previous version cannot change them between the count and the triggers.
  `LOCK TABLE devices, watches IN SHARE ROW EXCLUSIVE MODE;
   CREATE TABLE followed (
     network text NOT NULL,
     principal text NOT NULL,
     devices integer NOT NULL,
     PRIMARY KEY (network, principal)
   );
   CREATE TABLE relay_totals (
     one boolean PRIMARY KEY DEFAULT true CHECK (one),
     devices bigint NOT NULL,
     principals bigint NOT NULL
   );
   INSERT INTO followed (network, principal, devices)
     SELECT network, principal, count(*) FROM watches GROUP BY network, principal;
   INSERT INTO relay_totals (one, devices, principals)
     VALUES (true, (SELECT count(*) FROM devices), (SELECT count(*) FROM followed));
   CREATE FUNCTION relay_watches_added() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE new_principals bigint;
   BEGIN
     IF NOT EXISTS (SELECT 1 FROM added) THEN RETURN NULL; END IF;
     PERFORM 1 FROM relay_totals FOR UPDATE;
     WITH upserted AS (
       INSERT INTO followed AS f (network, principal, devices)
         SELECT network, principal, count(*) FROM added GROUP BY network, principal
       ON CONFLICT (network, principal) DO UPDATE SET devices = f.devices + excluded.devices
       RETURNING (xmax = 0) AS inserted)
     SELECT count(*) FILTER (WHERE inserted) INTO new_principals FROM upserted;
     IF new_principals > 0 THEN UPDATE relay_totals SET principals = principals + new_principals; END IF;
     RETURN NULL;
   END $$;
   CREATE FUNCTION relay_watches_removed() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE gone_principals bigint;
   BEGIN
     IF NOT EXISTS (SELECT 1 FROM removed) THEN RETURN NULL; END IF;
     PERFORM 1 FROM relay_totals FOR UPDATE;
     UPDATE followed f SET devices = f.devices - c.n
       FROM (SELECT network, principal, count(*) AS n FROM removed GROUP BY network, principal) AS c
      WHERE f.network = c.network AND f.principal = c.principal;
     WITH gone AS (
       DELETE FROM followed f USING (SELECT DISTINCT network, principal FROM removed) AS r
        WHERE f.network = r.network AND f.principal = r.principal AND f.devices <= 0
       RETURNING 1)
     SELECT count(*) INTO gone_principals FROM gone;
     IF gone_principals > 0 THEN UPDATE relay_totals SET principals = principals - gone_principals; END IF;
     RETURN NULL;
   END $$;
   CREATE FUNCTION relay_devices_added() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE n bigint;
   BEGIN
     SELECT count(*) INTO n FROM added;
     IF n > 0 THEN UPDATE relay_totals SET devices = devices + n; END IF;
     RETURN NULL;
   END $$;
   CREATE FUNCTION relay_devices_removed() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE n bigint;
   BEGIN
     SELECT count(*) INTO n FROM removed;
     IF n > 0 THEN UPDATE relay_totals SET devices = devices - n; END IF;
     RETURN NULL;
   END $$;
   CREATE TRIGGER watches_followed_added AFTER INSERT ON watches REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION relay_watches_added();
   CREATE TRIGGER watches_followed_removed AFTER DELETE ON watches REFERENCING OLD TABLE AS removed
     FOR EACH STATEMENT EXECUTE FUNCTION relay_watches_removed();
   CREATE TRIGGER devices_counted_added AFTER INSERT ON devices REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION relay_devices_added();
   CREATE TRIGGER devices_counted_removed AFTER DELETE ON devices REFERENCING OLD TABLE AS removed
     FOR EACH STATEMENT EXECUTE FUNCTION relay_devices_removed();`,
];

/** A step's statements: split at a semicolon that ends a line, but never inside a function's `$$ … $$` body. */
export function statementsOf(step: string): string[] {
  const statements: string[] = [];
  let current = '';
  for (const part of step.split(/(\$\$[\s\S]*?\$\$)/)) {
    if (part.startsWith('$$')) {
      current += part;
      continue;
    }
    const pieces = part.split(/;\s*$/m);
    current += pieces[0];
    for (const piece of pieces.slice(1)) {
      statements.push(current);
      current = piece;
    }
  }
  statements.push(current);
  return statements.filter((text) => text.trim());
}

/** Brings the schema up to the newest version; safe to call on every start and from several instances at once. */
export async function migrate(database: Database): Promise<number> {
  // A step over big tables may take minutes, and cut short it would fail the same way at every start.
  const db = database.within('maintenance');
  await db.query(
    `CREATE TABLE IF NOT EXISTS relay_migrations (version integer PRIMARY KEY, applied_at bigint NOT NULL)`,
  );
  let applied = 0;
  for (const [index, step] of MIGRATIONS.entries()) {
    const version = index + 1;
    const done = await db.transaction(async (sql) => {
      // One instance migrates at a time; the others wait here and then find the step done.
      if (db.kind === 'postgres') await sql.query('SELECT pg_advisory_xact_lock(74117011)');
      const rows = await sql.query('SELECT 1 FROM relay_migrations WHERE version = $1', [version]);
      if (rows.length > 0) return false;
      for (const statement of statementsOf(step)) await sql.query(statement);
      await sql.query('INSERT INTO relay_migrations (version, applied_at) VALUES ($1, $2)', [version, Date.now()]);
      return true;
    });
    if (done) applied += 1;
  }
  return applied;
}
