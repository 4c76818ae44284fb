import type { Log } from '../log.ts';
import { queuedSendOf, type QueuedRow, type QueuedSend } from '../storage/deliveries.ts';
import type { Database, Sql } from '../storage/sql.ts';
import { NOW_MS, PARTITIONS, partOf } from './partitions.ts';

/** A lease not renewed for this long is free: a dead instance's devices are taken over within it and one renewal. */
export const LEASE_MS = 8_000;
/** How often an instance renews its leases, says it is alive, and takes what is free. */
export const RENEW_MS = 2_000;
/** The lease changes of all instances are made one at a time (migrations take 74117011). */
const LEASE_LOCK = 74117012;
/** Queued states claimed a statement, at most. */
const SWEEP_LIMIT = 5_000;

export interface LeaseHooks {
  /** Whether this instance may take partitions: its followers have the chain's tip (or follow nothing yet). */
  ready(): boolean;
  /** Partitions leased to this instance: it judges for their devices from now on. */
  gained(parts: readonly number[]): Promise<void>;
  /** Partitions this instance no longer holds: it stops judging for their devices before they are let go. */
  lost(parts: readonly number[]): Promise<void>;
  /** Queued states this instance now sends: left by a dead instance, or by its own previous run. */
  claimed(sends: readonly QueuedSend[]): void;
}

export interface LeaseStatus {
  readonly instance: string;
  readonly partitions: number;
  /** Instances alive on the database (their heartbeat younger than a lease), this one included once ready. */
  readonly instances: number;
  /** When the leases were last renewed (epoch ms, this machine's clock); null before the first. */
  readonly renewedAt: number | null;
}

/**
 * The devices' partitions leased among the instances on one PostgreSQL database: no coordinator but the database.
 * Every RENEW_MS each instance, one at a time (an advisory lock): says it is alive, renews its leases, and takes free
 * or expired partitions up to its share (the partitions divided by the instances alive), or lets go of those past it
 * (after it stopped judging for their devices), so a new instance gets a share within seconds and a dead one's are
 * taken within LEASE_MS and a renewal. It then claims the queued states of its devices that no live instance claims
 * (`FOR UPDATE SKIP LOCKED`): a state is claimed by the instance that stored it, and visible to others only once that
 * instance's heartbeat is older than LEASE_MS — the outbox's visibility timeout.
 */
export class PartitionLeases {
  private readonly owned = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private firstReady = true;
  private live = 0;
  private renewedAt: number | null = null;

  constructor(
    private readonly db: Database,
    private readonly instance: string,
    private readonly hooks: LeaseHooks,
    private readonly log: Log,
  ) {}

  ownsPartition(part: number): boolean {
    return this.owned.has(part);
  }

  status(): LeaseStatus {
    return {
      instance: this.instance,
      partitions: this.owned.size,
      instances: this.live,
      renewedAt: this.renewedAt,
    };
  }

  /** The first round, then one every RENEW_MS. */
  async start(): Promise<void> {
    await this.round();
  }

  /** No more rounds (a stopping relay takes nothing new); what it holds stays held until `stop`. */
  async halt(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
  }

  /** Lets go of everything at once (its leases, its claims, its heartbeat), so others take over without waiting. */
  async stop(): Promise<void> {
    await this.halt();
    try {
      await this.db.transaction(async (sql) => {
        await sql.query('SELECT pg_advisory_xact_lock($1)', [LEASE_LOCK]);
        await sql.query('DELETE FROM partition_leases WHERE owner = $1', [this.instance]);
        await sql.query(`UPDATE deliveries SET claimed_by = NULL WHERE claimed_by = $1 AND status = 'queued'`, [
          this.instance,
        ]);
        await sql.query('DELETE FROM instances WHERE name = $1', [this.instance]);
      });
    } catch (error) {
      // Its leases and claims then expire as a dead instance's do.
      this.log.warn('leases not let go', { message: String(error) });
    }
  }

  private round(): Promise<void> {
    this.ticking = this.tick()
      .catch((error: unknown) => this.log.warn('leases not renewed', { message: String(error) }))
      .finally(() => {
        this.ticking = null;
        if (!this.stopped) this.timer = setTimeout(() => void this.round(), RENEW_MS);
      });
    return this.ticking;
  }

  private async tick(): Promise<void> {
    if (!this.hooks.ready()) return;
    const first = this.firstReady;
    const { held, over } = await this.db.transaction((sql) => this.lease(sql, first));
    this.renewedAt = Date.now();
    // Read before it judges for any device: from then on its own writes claim states in its name and hand them to
    // the sender themselves, and read here as well they would go to it twice (each then pushed twice).
    if (first) this.hooks.claimed(await this.ownClaims());
    this.firstReady = false;
    // Taken by another instance while this one could not renew (the database away, the machine stalled).
    const lost = [...this.owned].filter((part) => !held.includes(part));
    const gained = held.filter((part) => !this.owned.has(part) && !over.includes(part));
    for (const part of [...lost, ...over]) this.owned.delete(part);
    if (lost.length + over.length > 0) {
      await this.hooks.lost([...lost, ...over]);
      this.log.info('partitions let go', { taken: lost.length, handedOver: over.length });
    }
    if (over.length > 0)
      await this.db.query('DELETE FROM partition_leases WHERE owner = $1 AND part = ANY($2::int[])', [
        this.instance,
        over,
      ]);
    for (const part of gained) this.owned.add(part);
    if (gained.length > 0) {
      await this.hooks.gained(gained);
      this.log.info('partitions taken', { partitions: gained.length, owned: this.owned.size });
    }
    const claimed = await this.sweep();
    if (claimed.length > 0) this.hooks.claimed(claimed);
  }

  /** One instance at a time: heartbeat, renewal, this instance's share taken or what is past it chosen to let go. */
  private async lease(sql: Sql, first: boolean): Promise<{ held: number[]; over: number[] }> {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [LEASE_LOCK]);
    await sql.query(
      `INSERT INTO instances (name, seen_at, started_at) VALUES ($1, ${NOW_MS}, ${NOW_MS})
       ON CONFLICT (name) DO UPDATE SET seen_at = excluded.seen_at,
         started_at = CASE WHEN $2 THEN excluded.started_at ELSE instances.started_at END`,
      [this.instance, first],
    );
    const renewed = await sql.query<{ part: number }>(
      `UPDATE partition_leases SET expires_at = ${NOW_MS} + $2 WHERE owner = $1 RETURNING part`,
      [this.instance, LEASE_MS],
    );
    const [alive] = await sql.query<{ count: number | string }>(
      `SELECT count(*) AS count FROM instances WHERE seen_at > ${NOW_MS} - $1`,
      [LEASE_MS],
    );
    this.live = Math.max(1, Number(alive?.count ?? 1));
    const share = Math.ceil(PARTITIONS / this.live);
    const held = renewed.map((row) => Number(row.part)).sort((a, b) => a - b);
    if (held.length > share) return { held, over: held.slice(share) };
    if (held.length === share) return { held, over: [] };
    const taken = await sql.query<{ part: number }>(
      `INSERT INTO partition_leases (part, owner, expires_at)
         SELECT g, $1, ${NOW_MS} + $2 FROM generate_series(0, ${PARTITIONS - 1}) AS g
          WHERE NOT EXISTS (SELECT 1 FROM partition_leases l WHERE l.part = g AND l.expires_at >= ${NOW_MS})
          ORDER BY g LIMIT $3
       ON CONFLICT (part) DO UPDATE SET owner = excluded.owner, expires_at = excluded.expires_at
         WHERE partition_leases.expires_at < ${NOW_MS}
       RETURNING part`,
      [this.instance, LEASE_MS, share - held.length],
    );
    return { held: [...held, ...taken.map((row) => Number(row.part))], over: [] };
  }

  /** What this instance's previous run claimed and never sent (it was killed): sent now. */
  private async ownClaims(): Promise<QueuedSend[]> {
    const rows = await this.db.query<QueuedRow>(
      `SELECT device_id, cursor, tries, urgency, alert, next_try_at, redriven_at FROM deliveries
        WHERE status = 'queued' AND claimed_by = $1 ORDER BY next_try_at, cursor`,
      [this.instance],
    );
    return rows.map(queuedSendOf);
  }

  /**
   * Queued states of this instance's partitions that nobody alive claims (their instance died): claimed here. Never
   * its own, even when its heartbeat lapsed (the database was away): its sender holds those already.
   */
  private async sweep(): Promise<QueuedSend[]> {
    if (this.owned.size === 0) return [];
    const rows = await this.db.query<QueuedRow>(
      `UPDATE deliveries q SET claimed_by = $1
         FROM (SELECT d.device_id, d.cursor FROM deliveries d
                WHERE d.status = 'queued' AND ${partOf('d.device_id')} = ANY($2::int[])
                  AND d.claimed_by IS DISTINCT FROM $1
                  AND (d.claimed_by IS NULL OR NOT EXISTS (SELECT 1 FROM instances i
                         WHERE i.name = d.claimed_by AND i.seen_at > ${NOW_MS} - $3))
                ORDER BY d.next_try_at, d.cursor LIMIT ${SWEEP_LIMIT}
                FOR UPDATE OF d SKIP LOCKED) c
        WHERE q.device_id = c.device_id AND q.cursor = c.cursor
       RETURNING q.device_id, q.cursor, q.tries, q.urgency, q.alert, q.next_try_at, q.redriven_at`,
      [this.instance, [...this.owned], LEASE_MS],
    );
    if (rows.length > 0) this.log.info('queued states taken over', { states: rows.length });
    return rows.map(queuedSendOf).sort((a, b) => a.notBefore - b.notBefore || a.cursor - b.cursor);
  }
}
