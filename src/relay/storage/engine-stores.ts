import type { AlertFacts } from '../../domain/alerts/alert-facts.ts';
import type { AlertLedger } from '../../domain/alerts/alert-ledger.ts';
import { ledgerKey } from '../../domain/alerts/alert-ledger.ts';
import type { InboxEntry } from '../../domain/alerts/inbox.ts';
import type { Network } from '../../domain/network.ts';
import type { ResumeAnchor } from '../../domain/state/resume-anchor.ts';
import type { AnchorPort } from '../../monitor/change-scout.ts';
import { emptySnapshot, type AddressSnapshot, type TokenMetadata } from '../../domain/state/snapshot.ts';
import type {
  AlertLedgerPort,
  InboxChange,
  InboxPort,
  NamePort,
  SnapshotPort,
  TokenPort,
} from '../../monitor/ports.ts';
import { keepTrying } from '../../notify/keep-trying.ts';
import { decode, encode } from './codec.ts';
import type { AlertWrites } from './alert-writes.ts';
import { KEPT_PER_DEVICE, type RelayAlert, type Urgency } from './deliveries.ts';
import type { Database, Sql } from './sql.ts';

/**
 * Every followed principal's snapshot, in memory for the engine and in the `progress` table: its synced height is
 * where a restarted relay's catch-up begins. Writes are batched behind the changes, as the page's book does.
 */
export class SqlSnapshots implements SnapshotPort {
  private readonly snapshots = new Map<string, AddressSnapshot>();
  /** Those holding pending transactions: the pending keeper follows their topics, and asks after every change. */
  private readonly pending = new Set<string>();
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly db: Database,
    private readonly report: (problem: string) => void = console.warn,
  ) {}

  async load(): Promise<void> {
    for (const row of await this.db.query<{ principal: string; snapshot: string }>('SELECT * FROM progress'))
      this.keep(row.principal, decode<AddressSnapshot>(row.snapshot));
  }

  withPending(): Iterable<string> {
    return this.pending;
  }

  private keep(principal: string, snapshot: AddressSnapshot): void {
    this.snapshots.set(principal, snapshot);
    if (snapshot.pending.length > 0) this.pending.add(principal);
    else this.pending.delete(principal);
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
    this.flushing ??= Promise.resolve().then(() => this.flush());
    return after;
  }

  async forget(principals: readonly string[]): Promise<void> {
    if (principals.length === 0) return;
    for (const principal of principals) {
      this.snapshots.delete(principal);
      this.pending.delete(principal);
    }
    await this.db.query('DELETE FROM progress WHERE principal = ANY($1::text[])', [[...principals]]);
  }

  /** Resolves once every change so far is stored (a write that fails is tried until it is). */
  async saved(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    // A snapshot not stored must not be taken for stored: the resume anchor waits for this (SqlAnchors).
    while (this.dirty.size > 0) await keepTrying(() => this.writeDirty(), 'Storing address snapshots', this.report);
    this.flushing = null;
  }

  /** Writes what changed since the last write; what fails stays to write (the latest state, when retried). */
  private async writeDirty(): Promise<void> {
    const principals = [...this.dirty];
    this.dirty.clear();
    const batch = principals.flatMap((principal) => this.snapshots.get(principal) ?? []);
    try {
      await this.db.query(
        `INSERT INTO progress (network, principal, synced_height, snapshot)
           SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[])
         ON CONFLICT (network, principal) DO UPDATE SET synced_height = excluded.synced_height,
           snapshot = excluded.snapshot`,
        [
          batch.map((s) => s.network),
          batch.map((s) => s.principal),
          batch.map((s) => s.syncedHeight ?? null),
          batch.map((s) => encode(s)),
        ],
      );
    } catch (error) {
      for (const snapshot of batch) if (this.snapshots.has(snapshot.principal)) this.dirty.add(snapshot.principal);
      throw error;
    }
  }
}

/** Facts that never change once learned (token metadata, BNS names), one kind per instance. */
class SqlFacts<T> {
  private readonly known = new Map<string, T>();
  constructor(
    private readonly db: Database,
    private readonly kind: string,
  ) {}

  async load(): Promise<void> {
    const rows = await this.db.query<{ key: string; value: string }>('SELECT key, value FROM facts WHERE kind = $1', [
      this.kind,
    ]);
    for (const row of rows) this.known.set(row.key, decode<T>(row.value));
  }

  protected read(key: string): T | undefined {
    return this.known.get(key);
  }

  has(key: string): boolean {
    return this.known.has(key);
  }

  protected async keep(key: string, value: T): Promise<void> {
    this.known.set(key, value);
    await this.db.query(
      'INSERT INTO facts (kind, key, value) VALUES ($1, $2, $3) ON CONFLICT (kind, key) DO UPDATE SET value = $3',
      [this.kind, key, encode(value)],
    );
  }
}

export class SqlTokens extends SqlFacts<TokenMetadata> implements TokenPort {
  constructor(db: Database) {
    super(db, 'token');
  }
  get(assetOrContract: string): TokenMetadata | undefined {
    return this.read(assetOrContract.split('::')[0] ?? assetOrContract);
  }
  add(contract: string, metadata: TokenMetadata): Promise<void> {
    return this.keep(contract, metadata);
  }
}

export class SqlNames extends SqlFacts<string> implements NamePort {
  constructor(db: Database) {
    super(db, 'name');
  }
  get(principal: string): string | null | undefined {
    const name = this.read(principal);
    return name === undefined ? undefined : name || null;
  }
  add(principal: string, name: string | null): Promise<void> {
    return this.keep(principal, name ?? '');
  }
}

/**
 * Each followed node's resume anchor (the block every principal was complete up to, monitor/change-scout.ts), kept
 * across restarts so that a restart reads only the principals the chain touched since, not every one. Stored only
 * once every snapshot read before it is stored: an anchor must never be newer than what the table holds.
 */
export class SqlAnchors extends SqlFacts<ResumeAnchor> {
  private writing: Promise<void> = Promise.resolve();

  constructor(
    db: Database,
    private readonly snapshots: SqlSnapshots,
    private readonly report: (problem: string) => void = console.warn,
  ) {
    super(db, 'anchor');
  }

  of(nodeUrl: string): AnchorPort {
    return {
      get: () => this.read(nodeUrl) ?? null,
      set: (anchor) => {
        this.writing = this.writing
          .then(() => this.snapshots.saved())
          .then(() => keepTrying(() => this.keep(nodeUrl, anchor), 'Storing where the node was followed', this.report))
          .catch((error: unknown) =>
            this.report(`Could not store where the node was followed up to: ${String(error)}`),
          );
      },
    };
  }

  /** Resolves once every anchor set so far is stored. */
  saved(): Promise<void> {
    return this.writing;
  }
}

/** What a device's alerts stored (its ledgers, its alert states), as read for many devices at once on start. */
export interface StoredDeviceState {
  readonly ledgers: { ledger: string }[];
  readonly states: { entry: string; cursor: number }[];
}

/** Every listed device's ledgers and alert states in a few queries, rather than two a device. */
export async function readDeviceStates(db: Sql, deviceIds: readonly string[]): Promise<Map<string, StoredDeviceState>> {
  const stored = new Map<string, StoredDeviceState>(deviceIds.map((id) => [id, { ledgers: [], states: [] }]));
  for (let start = 0; start < deviceIds.length; start += 1000) {
    const ids = deviceIds.slice(start, start + 1000);
    for (const row of await db.query<{ device_id: string; ledger: string }>(
      'SELECT device_id, ledger FROM ledgers WHERE device_id = ANY($1::text[])',
      [ids],
    ))
      stored.get(row.device_id)?.ledgers.push(row);
    for (const row of await db.query<{ device_id: string; entry: string; cursor: number }>(
      'SELECT device_id, entry, cursor FROM alert_states WHERE device_id = ANY($1::text[])',
      [ids],
    ))
      stored.get(row.device_id)?.states.push(row);
  }
  return stored;
}

/** One device's ledgers: what its alerts have seen of each watched principal. */
export class DeviceLedgers implements AlertLedgerPort {
  constructor(
    private readonly db: Sql,
    private readonly writes: AlertWrites,
    private readonly deviceId: string,
    /** Read already (on start, for every device at once): the first load takes these. */
    private preloaded?: StoredDeviceState['ledgers'],
  ) {}

  async load(): Promise<Map<string, AlertLedger>> {
    const rows =
      this.preloaded ??
      (await this.db.query<{ ledger: string }>('SELECT ledger FROM ledgers WHERE device_id = $1', [this.deviceId]));
    this.preloaded = undefined;
    const ledgers = new Map<string, AlertLedger>();
    for (const row of rows) {
      const ledger = decode<AlertLedger>(row.ledger);
      ledgers.set(ledgerKey(ledger), ledger);
    }
    return ledgers;
  }

  async save(ledgers: readonly AlertLedger[]): Promise<void> {
    if (ledgers.length > 0) await this.writes.saveLedgers(this.deviceId, ledgers);
  }
}

/**
 * One device's inbox: the latest state of each alert (what the engine asks before telling), and the outbox: every
 * new state is appended to the device's delivery log in the same transaction, to be pushed. It keeps the alerts of
 * the last KEPT_PER_DEVICE deliveries, as the log does.
 */
export class DeviceInbox implements InboxPort {
  private readonly byId = new Map<string, InboxEntry>();
  /** Each alert's latest cursor. */
  private readonly cursors = new Map<string, number>();

  constructor(
    private readonly db: Sql,
    private readonly writes: AlertWrites,
    private readonly deviceId: string,
    private readonly urgencyOf: (entry: InboxEntry) => Urgency,
    /** Read already (on start, for every device at once): the first load takes these. */
    private preloaded?: StoredDeviceState['states'],
    /** Adds what the relay knows (BNS names, token metadata) to an alert's facts before it is stored and pushed. */
    private readonly withKnown: (facts: AlertFacts) => AlertFacts = (facts) => facts,
  ) {}

  async load(): Promise<void> {
    const rows =
      this.preloaded ??
      (await this.db.query<{ entry: string; cursor: number }>(
        'SELECT entry, cursor FROM alert_states WHERE device_id = $1',
        [this.deviceId],
      ));
    this.preloaded = undefined;
    this.byId.clear();
    this.cursors.clear();
    for (const row of rows) {
      const entry = decode<InboxEntry>(row.entry);
      this.byId.set(entry.id, entry);
      this.cursors.set(entry.id, Number(row.cursor));
    }
  }

  get(id: string): InboxEntry | undefined {
    return this.byId.get(id);
  }

  list(): readonly InboxEntry[] {
    return [...this.byId.values()];
  }

  async change(changes: ReadonlyMap<string, InboxChange>): Promise<InboxEntry[]> {
    if (changes.size === 0) return [];
    const written: InboxEntry[] = [];
    const fresh: InboxEntry[] = [];
    for (const [id, change] of changes) {
      const next = change(this.byId.get(id));
      if (!next) continue;
      written.push(next);
      if (isNewState(this.byId.get(id), next)) fresh.push(next);
    }
    // Only new states are stored: a delivery record changes nothing the relay needs after a restart (the sender's
    // queue says what was told), so it stays in memory and costs no transaction.
    if (fresh.length > 0) {
      const stored = await this.writes.append(
        this.deviceId,
        fresh.map((entry) => ({ entry, alert: toRelayAlert(entry, this.withKnown), urgency: this.urgencyOf(entry) })),
      );
      for (const alert of stored) this.cursors.set(alert.id, Number(alert.cursor));
    }
    for (const entry of written) this.byId.set(entry.id, entry);
    this.prune();
    return written;
  }

  /** Alerts older than the kept log are forgotten, as in the database. */
  private prune(): void {
    if (this.byId.size <= KEPT_PER_DEVICE * 1.2) return;
    const newest = [...this.cursors].sort((a, b) => b[1] - a[1]).slice(0, KEPT_PER_DEVICE);
    const keep = new Set(newest.map(([id]) => id));
    for (const id of this.byId.keys()) if (!keep.has(id)) this.byId.delete(id);
    for (const id of this.cursors.keys()) if (!keep.has(id)) this.cursors.delete(id);
  }
}
/** A state the engine just stored to be shown (not a delivery being recorded). */
const isNewState = (before: InboxEntry | undefined, next: InboxEntry): boolean =>
  next.undelivered && (!before || !before.undelivered || before.phase !== next.phase || before.at !== next.at);

const toRelayAlert = (entry: InboxEntry, withKnown: (facts: AlertFacts) => AlertFacts): Omit<RelayAlert, 'cursor'> => ({
  id: entry.id,
  network: entry.network,
  principal: entry.principal,
  txId: entry.txId,
  phase: entry.phase,
  title: entry.title,
  body: entry.body,
  path: entry.path,
  at: entry.at,
  ...(entry.facts ? { facts: withKnown(entry.facts) } : {}),
  ...(entry.quiet ? { quiet: true as const } : {}),
});
