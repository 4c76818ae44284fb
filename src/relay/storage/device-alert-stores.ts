import type { AlertFacts } from '../../domain/alerts/alert-facts.ts';
import type { AlertLedger } from '../../domain/alerts/alert-ledger.ts';
import { ledgerKey, sameState } from '../../domain/alerts/alert-ledger.ts';
import { entryState, type InboxEntry } from '../../domain/alerts/inbox.ts';
import type { AlertLedgerPort, InboxChange, InboxPort } from '../../monitor/ports.ts';
import { decode } from './codec.ts';
import type { AlertWrites } from './alert-writes.ts';
import { KEPT_PER_DEVICE, type RelayAlert, type Urgency } from './deliveries.ts';
import type { Sql } from './sql.ts';

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
/** A state the engine just stored to be shown (not a delivery being recorded): a failure's new outcome is one. */
const isNewState = (before: InboxEntry | undefined, next: InboxEntry): boolean =>
  next.undelivered &&
  (!before || !before.undelivered || before.at !== next.at || !sameState(entryState(before), entryState(next)));

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
  ...(entry.phase === 'pending' && entry.facts?.afterRevert ? { afterRevert: true as const } : {}),
});
