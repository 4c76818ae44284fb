import type { Network } from '../../domain/network.ts';
import { emptySnapshot, type AddressSnapshot } from '../../domain/state/snapshot.ts';
import { stakes } from '../../domain/state/staking.ts';
import type { SnapshotPort } from '../../monitor/ports.ts';
import { keepTrying } from '../../notify/keep-trying.ts';
import { decode, encode } from './codec.ts';
import type { Database } from './sql.ts';
import { WrittenUpTo } from './written-up-to.ts';

/**
 * How long changed snapshots gather before they are written: written on the next tick, they cost ~80 statements a
 * second at 10,000 devices and 100 tx/s (docs/relay-at-scale.md), each a round trip that wakes PostgreSQL.
 */
const GATHER_MS = 100;

/**
 * Every followed principal's snapshot, in memory for the engine and in the `progress` table: its synced height is
 * where a restarted relay's catch-up begins. Writes are batched behind the changes, as the page's book does.
 */
export class SqlSnapshots implements SnapshotPort {
  private readonly snapshots = new Map<string, AddressSnapshot>();
  /** Those holding pending transactions: the pending keeper follows their topics, and asks after every change. */
  private readonly pending = new Set<string>();
  /** Those that stake: the staking keeper reads them again at each burn block. */
  private readonly stakers = new Set<string>();
  private readonly dirty = new Set<string>();
  /** Changes made and stored, counted: `saved` waits for those made before it was asked. */
  private readonly changes = new WrittenUpTo();
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly report: (problem: string) => void = console.warn,
    /** Whose snapshots: each instance on a shared database follows the chain itself, at its own pace. */
    private readonly instance = '',
  ) {}

  async load(): Promise<void> {
    for (const row of await this.db.query<{ principal: string; snapshot: string }>(
      'SELECT principal, snapshot FROM progress WHERE instance = $1',
      [this.instance],
    ))
      this.keep(row.principal, decode<AddressSnapshot>(row.snapshot));
  }

  withPending(): Iterable<string> {
    return this.pending;
  }

  staking(): Iterable<string> {
    return this.stakers;
  }

  private keep(principal: string, snapshot: AddressSnapshot): void {
    this.snapshots.set(principal, snapshot);
    if (snapshot.pending.length > 0) this.pending.add(principal);
    else this.pending.delete(principal);
    if (stakes(snapshot)) this.stakers.add(principal);
    else this.stakers.delete(principal);
  }

  get(principal: string): AddressSnapshot | undefined {
    return this.snapshots.get(principal);
  }

  all(): AddressSnapshot[] {
    return [...this.snapshots.values()];
  }

  update(principal: string, network: Network, change: (snapshot: AddressSnapshot) => AddressSnapshot): AddressSnapshot {
    const before = this.snapshots.get(principal) ?? emptySnapshot(principal, network);
    const after = change(before);
    if (after === before && this.snapshots.has(principal)) return before;
    this.keep(principal, after);
    this.dirty.add(principal);
    this.changes.handedOver();
    this.flushing ??= this.flush();
    return after;
  }

  async forget(principals: readonly string[]): Promise<void> {
    if (principals.length === 0) return;
    for (const principal of principals) {
      this.snapshots.delete(principal);
      this.pending.delete(principal);
      this.stakers.delete(principal);
    }
    await this.db.query('DELETE FROM progress WHERE instance = $1 AND principal = ANY($2::text[])', [
      this.instance,
      [...principals],
    ]);
  }

  /**
   * Resolves once every change made before the call is stored (a write that fails is tried until it is); later ones
   * are not waited for (under steady traffic the snapshots are never all stored at once).
   */
  async saved(): Promise<void> {
    await this.changes.written(() => this.flushing !== null);
  }

  /**
   * Writes what changed, gathered for GATHER_MS first: a block changes hundreds of snapshots over a few hundred ms,
   * and nothing on the alert path waits for them (only the resume anchor, and a restart re-reads from the older one).
   */
  private async flush(): Promise<void> {
    // A snapshot not stored must not be taken for stored: the resume anchor waits for this (SqlAnchors).
    do {
      await new Promise((resolve) => setTimeout(resolve, GATHER_MS));
      await keepTrying(() => this.writeDirty(), 'Storing address snapshots', this.report);
    } while (this.dirty.size > 0);
    this.flushing = null;
    this.changes.attemptEnded();
  }

  /** Writes what changed since the last write; what fails stays to write (the latest state, when retried). */
  private async writeDirty(): Promise<void> {
    const principals = [...this.dirty];
    const upTo = this.changes.upTo;
    this.dirty.clear();
    const batch = principals.flatMap((principal) => this.snapshots.get(principal) ?? []);
    try {
      await this.db.query(
        `INSERT INTO progress (instance, network, principal, synced_height, snapshot)
           SELECT $5, * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
         ON CONFLICT (instance, network, principal) DO UPDATE SET synced_height = excluded.synced_height,
           snapshot = excluded.snapshot`,
        [
          batch.map((s) => s.network),
          batch.map((s) => s.principal),
          batch.map((s) => s.syncedHeight ?? null),
          batch.map((s) => encode(s)),
          this.instance,
        ],
      );
    } catch (error) {
      for (const snapshot of batch) if (this.snapshots.has(snapshot.principal)) this.dirty.add(snapshot.principal);
      this.changes.attemptEnded();
      throw error;
    }
    this.changes.storedUpTo(upTo);
  }
}
