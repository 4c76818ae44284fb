import type { Log } from '../log.ts';
import type { Database } from '../storage/sql.ts';
import { HEARTBEAT, KEEP_ALIVE, LET_GO, leaseRound, letGoOfAll, othersReady, UNCLAIM } from './lease-statements.ts';
import { claimsOf, ownClaims, sweepClaims } from './outbox-claims.ts';
import type { LeaseHooks, LeaseStatus, LeaseTiming } from './lease-hooks.ts';
import { settlesWithin } from '../settles-within.ts';

/** A lease not renewed for this long is free: a dead instance's devices are taken over within it and one renewal. */
export const LEASE_MS = 8_000;
/** How often an instance renews its leases, says it is alive, and takes what is free. */
export const RENEW_MS = 2_000;
/**
 * How long after its last heartbeat an instance starts pushes: half a lease. Another instance takes its claims only
 * once that heartbeat is a lease old, so a push started in time has the other half to be answered and marked told.
 */
export const FRESH_MS = LEASE_MS / 2;

export type { LeaseHooks, LeaseStatus, LeaseTiming } from './lease-hooks.ts';

/**
 * The devices' partitions leased among the instances on one PostgreSQL database: no coordinator but the database.
 * Every RENEW_MS each instance, one at a time (an advisory lock): says it is alive, renews its leases, and takes free
 * or expired partitions up to its share (the partitions divided by the instances alive), or lets go of those past it
 * (after it stopped judging for their devices), so a new instance gets a share within seconds and a dead one's are
 * taken within LEASE_MS and a renewal. It then claims the queued states of its devices that no live instance claims
 * (`FOR UPDATE SKIP LOCKED`): a state is claimed by the instance that stored it, and visible to others only once that
 * instance's heartbeat is older than LEASE_MS — the outbox's visibility timeout.
 *
 * The heartbeat fences the sender: an instance starts pushes only while its last heartbeat is younger than FRESH_MS
 * (a stalled event loop or a slow database may have made it look dead), and after a lapse it drops what is no longer
 * claimed in its name before it sends again. An instance whose followers lost the tip keeps its heartbeat (it still
 * sends what it claimed), is left out of the share count, and lets its partitions go before its leases run out when
 * another instance is at the tip to take them.
 */
export class PartitionLeases {
  private readonly owned = new Set<number>();
  /** Partitions let go whose leases and claims are not yet written away (storeLetGo). */
  private readonly lettingGo = new Set<number>();
  /** Partitions taken whose devices it has not yet begun to judge (hooks.gained not yet done). */
  private readonly adopting = new Set<number>();
  /** Its own partitions taken again whose devices are not yet judged again from storage (takeBack not yet done). */
  private readonly takingBack = new Set<number>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private firstReady = true;
  /** When its last lease renewal began (its clock): the leases it holds run until LEASE_MS after, at least. */
  private leasedAt: number | null = null;
  private live = 0;
  private renewedAt: number | null = null;
  /** When its last heartbeat began (its clock): the heartbeat stored is no older. */
  private heartbeatAt: number | null = null;
  /** A heartbeat is being stored (by a round, or by `keepAlive` between its steps). */
  private beating = false;
  private readonly now: () => number;
  private readonly renewMs: number;
  private readonly db: Database;

  constructor(
    db: Database,
    private readonly instance: string,
    private readonly hooks: LeaseHooks,
    private readonly log: Log,
    timing: LeaseTiming = {},
  ) {
    // A round must end, renewed or failed, well within a lease: on PostgreSQL under the alert path's time limits
    // (postgres-limits.ts), so a round stuck on a connection whose peer vanished fails and the next one tries anew.
    this.db = db.within('alert-path');
    this.now = timing.now ?? Date.now;
    this.renewMs = timing.renewMs ?? RENEW_MS;
  }

  ownsPartition(part: number): boolean {
    return this.owned.has(part);
  }

  /** Whether no other instance can have taken its claims: its last heartbeat is younger than FRESH_MS. */
  fresh(): boolean {
    return this.now() < this.freshUntil();
  }

  /** Until when (its clock) no other instance can have taken its claims; 0 before its first heartbeat. */
  freshUntil(): number {
    return this.heartbeatAt === null ? 0 : this.heartbeatAt + FRESH_MS;
  }

  status(): LeaseStatus {
    return {
      instance: this.instance,
      partitions: this.owned.size,
      instances: this.live,
      renewedAt: this.renewedAt,
      sending: this.fresh(),
    };
  }

  /** The first round, then one every RENEW_MS. */
  async start(): Promise<void> {
    await this.round();
  }

  /** A round now (after the one under way); the next follows it as usual. */
  async renew(): Promise<void> {
    await this.ticking;
    if (this.timer) clearTimeout(this.timer);
    if (!this.stopped) await this.round();
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
      await this.db.transaction((sql) => letGoOfAll(sql, this.instance));
    } catch (error) {
      // Its leases and claims then expire as a dead instance's do.
      this.log.warn('leases not let go', { message: String(error) });
    }
  }

  private round(): Promise<void> {
    const tick = this.tick().catch((error: unknown) => this.log.warn('leases not renewed', { message: String(error) }));
    // Neither rejects: a failed round is logged, and the next one tries anew.
    this.ticking = Promise.all([tick, this.keepAlive(tick)]).then(() => {
      this.ticking = null;
      if (!this.stopped) this.timer = setTimeout(() => void this.round(), this.renewMs);
    });
    return this.ticking;
  }

  /**
   * While a round waits on its hooks past RENEW_MS (a hand-over on pushes in flight, up to their 15 s; a takeover on
   * the chain), its heartbeat and leases are renewed: else the others would take it for dead after LEASE_MS, take all
   * its partitions and claims, and send what it is sending. Not before its first heartbeat, nor beside one being
   * stored.
   */
  private async keepAlive(tick: Promise<void>): Promise<void> {
    while (!(await settlesWithin(tick, this.renewMs))) {
      if (this.heartbeatAt === null || this.beating) continue;
      await this.beat(this.now(), () => this.db.query(KEEP_ALIVE, [this.instance, LEASE_MS])).catch((error: unknown) =>
        this.log.warn('leases not kept alive', { message: String(error) }),
      );
    }
  }

  private async tick(): Promise<void> {
    const began = this.now();
    await this.storeLetGo();
    if (!this.hooks.ready()) {
      // Not at the tip: it takes no share, and until its first share it has claimed nothing to keep. What it holds
      // goes before another may take it, not at once (a round soon after a renewal may find a block being taken).
      if (!this.firstReady) await this.beat(began, () => this.db.query(HEARTBEAT, [this.instance]));
      // Let go only to another instance at the tip: alone, it keeps judging (nobody else would) and renews its
      // leases once it has the tip again.
      if (
        this.owned.size > 0 &&
        began - (this.leasedAt ?? began) >= LEASE_MS - RENEW_MS &&
        (await othersReady(this.db, this.instance, LEASE_MS))
      )
        await this.letGo([], [...this.owned], 'behindTheTip');
      return;
    }
    const first = this.firstReady;
    const { held, over, taken, live } = await this.beat(began, () =>
      this.db.transaction((sql) => leaseRound(sql, this.instance, first, LEASE_MS)),
    );
    this.live = live;
    this.leasedAt = began;
    this.renewedAt = Date.now();
    // Read before it judges for any device: from then on its own writes claim states in its name and hand them to
    // the sender, and read here too they would be pushed twice.
    if (first) this.hooks.claimed(await ownClaims(this.db, this.instance));
    this.firstReady = false;
    // Taken by another instance while this one could not renew (the database away, the machine stalled).
    const lost = [...this.owned].filter((part) => !held.includes(part));
    const gained = held.filter((part) => !this.owned.has(part) && !over.includes(part));
    if (lost.length + over.length > 0) await this.letGo(lost, over, 'handedOver');
    // Its own, taken again: another instance held it in between (this one stalled), and this one's writes meanwhile
    // were refused. Its devices are judged from storage again; their queued states swept below.
    for (const part of taken) if (this.owned.has(part)) this.takingBack.add(part);
    for (const part of gained) {
      this.owned.add(part);
      this.adopting.add(part);
    }
    // What a round cut short left undone (a statement timed out, the database away) is done by the next round that
    // still holds the partition: else it would stay leased here with nobody judging its devices.
    for (const part of [...this.takingBack, ...this.adopting])
      if (!this.owned.has(part)) {
        this.takingBack.delete(part);
        this.adopting.delete(part);
      }
    if (this.takingBack.size > 0) await this.takeBack([...this.takingBack]);
    if (this.adopting.size > 0) {
      const parts = [...this.adopting];
      await this.hooks.gained(parts);
      for (const part of parts) this.adopting.delete(part);
      this.log.info('partitions taken', { partitions: parts.length, owned: this.owned.size });
    }
    // Queued states of its partitions that nobody alive claims (their instance died, or handed them over).
    const claimed = this.owned.size > 0 ? await sweepClaims(this.db, this.instance, [...this.owned], LEASE_MS) : [];
    if (claimed.length > 0) {
      this.log.info('queued states taken over', { states: claimed.length });
      this.hooks.claimed(claimed);
    }
  }

  private async takeBack(parts: number[]): Promise<void> {
    await this.hooks.lost(parts);
    await this.db.query(UNCLAIM, [this.instance, parts]);
    await this.hooks.gained(parts);
    for (const part of parts) {
      this.takingBack.delete(part);
      this.adopting.delete(part);
    }
    this.log.warn('partitions taken back', { partitions: parts.length });
  }

  /** Stops judging for the devices of `lost` (taken) and `over` (its own), then lets `over` go: one judge a device. */
  private async letGo(lost: number[], over: number[], why: 'handedOver' | 'behindTheTip'): Promise<void> {
    for (const part of [...lost, ...over]) this.owned.delete(part);
    await this.hooks.lost([...lost, ...over]);
    this.log.info('partitions let go', { taken: lost.length, [why]: over.length });
    for (const part of [...lost, ...over]) this.lettingGo.add(part);
    await this.storeLetGo();
  }

  /**
   * Writes what was let go: its leases gone and its queued states unclaimed, for the new owner to send. Failed (the
   * database away), it is written again at the start of each round, before anything is leased: until then those
   * states stay claimed by this live instance, which no longer sends them, and nobody else may.
   */
  private async storeLetGo(): Promise<void> {
    if (this.lettingGo.size === 0) return;
    const parts = [...this.lettingGo];
    await this.db.query(LET_GO, [this.instance, parts]);
    for (const part of parts) this.lettingGo.delete(part);
  }

  /**
   * Stores a heartbeat (`store`, begun at `began`), then opens the sender's fence. After a lapse long enough for
   * others to take its claims, first drops what it no longer claims: until then its last heartbeat is stale and the
   * fence stays shut.
   */
  private async beat<T>(began: number, store: () => Promise<T>): Promise<T> {
    this.beating = true;
    try {
      const stored = await store();
      if (this.heartbeatAt !== null && this.now() - this.heartbeatAt >= FRESH_MS) {
        this.log.warn('heartbeat lapsed', { ms: this.now() - this.heartbeatAt });
        await this.hooks.lapsed(() => claimsOf(this.db, this.instance));
      }
      this.heartbeatAt = began;
      this.hooks.renewed();
      return stored;
    } finally {
      this.beating = false;
    }
  }
}
