import type { AlertLedger } from '../../domain/alerts/alert-ledger.ts';
import type { InboxEntry } from '../../domain/alerts/inbox.ts';
import { encode } from './codec.ts';
import { appendClaimed, pastKeptLog, type QueuedSend, type RelayAlert, type Urgency } from './deliveries.ts';
import { GroupCommit, type Handed } from './group-commit.ts';
import type { Database, Sql } from './sql.ts';

/** A new state of one of a device's alerts: its inbox entry, and what is pushed. */
export interface NewState {
  readonly entry: InboxEntry;
  readonly alert: Omit<RelayAlert, 'cursor'>;
  readonly urgency: Urgency;
}

/**
 * Devices' states a transaction, at most: a block's ~500 confirmations go in four, and the push threads encrypt the
 * first while the next are written, instead of waiting for all of them (back to back at 10,000 devices on
 * PostgreSQL: p50 138-196 ms against 168-259 ms in one transaction).
 */
const STATES_PER_BATCH = 128;

/**
 * States transactions under way at once on PostgreSQL, of the alert path's eight connections. Beside the one for
 * whatever is handed over, more would start only for batches with confirmed incoming transfers (urgency high). On two
 * quiet cores, three side by side made a block's confirmations later, not sooner (10,000 devices, p95 512 and 645 ms
 * against 374 ms with one: PostgreSQL and the push threads share those cores); they helped only on a loaded machine.
 * One, then: a machine with more cores may raise it (docs/relay-at-scale.md).
 */
const STATES_TRANSACTIONS = 1;

/**
 * Which devices this instance may write for; none given (one instance), every device. Several instances: those whose
 * partition is leased to it (cluster/write-fence.ts).
 */
export interface WriteFence {
  /** Of the devices a transaction writes for, those it may write for, read in the transaction. */
  allowed(sql: Sql, deviceIds: readonly string[]): Promise<ReadonlySet<string>>;
  /** The instance writing, passed to `holds` as a parameter. */
  readonly owner: string;
  /** The same as a condition inside a statement, on a device id expression and the owner's parameter. */
  holds(deviceId: string, owner: string): string;
}

interface StatesJob extends Handed<RelayAlert[]> {
  readonly deviceId: string;
  readonly states: readonly NewState[];
}

interface LedgersJob extends Handed<void> {
  readonly deviceId: string;
  readonly ledgers: readonly AlertLedger[];
}

/**
 * Every device's writes batched across devices (group commit): whatever the devices' alerters hand over while one
 * write runs goes into the next, with set-based statements, so a block's alerts for thousands of devices cost a
 * handful of statements instead of several per alert. New states and ledgers are written by two lanes, each one write
 * at a time (a transaction for states, one statement for ledgers): a block's states, which pushes wait for, never
 * wait behind the previous block's ledgers (on PostgreSQL the two run side by side, on separate connections and
 * tables). Each device still sees its own writes as before: its new states stored (and queued to send) before its
 * promise resolves, its ledger only after (the alerter asks in that order, so a ledger is never stored ahead of the
 * states it has seen).
 */
export class AlertWrites {
  private readonly states: GroupCommit<StatesJob, RelayAlert[], WrittenStates>;
  private readonly ledgers: GroupCommit<LedgersJob, void, void>;

  constructor(
    db: Database,
    /** States stored and waiting to be sent, once their transaction committed. */
    queued: (sends: QueuedSend[]) => void,
    /** This instance's name on a shared database: it claims the states it stores, to send them itself. */
    claimer: string | null = null,
    /**
     * On a shared database, the devices it may still write for. A device another instance took over while this one
     * stalled gets nothing written here, as a deleted device does: its new owner judges again from what is stored.
     */
    fence?: WriteFence,
  ) {
    // Every alert waits behind these: on PostgreSQL under the alert path's time limits (postgres-limits.ts).
    const alertPath = db.within('alert-path');
    this.states = new GroupCommit(
      (batch) => alertPath.transaction((sql) => writeStates(sql, batch, claimer, fence)),
      (batch, stored) => {
        const sends = storedStates(batch, stored);
        if (sends.length > 0) queued(sends);
      },
      {
        maxBatch: STATES_PER_BATCH,
        // Side by side on PostgreSQL's connections; PGlite has one, and runs its transactions one at a time anyway.
        parallel: db.kind === 'postgres' ? STATES_TRANSACTIONS : 1,
        writerOf: (job) => job.deviceId,
        urgent: (job) => job.states.some((state) => state.urgency === 'high'),
      },
    );
    this.ledgers = new GroupCommit(
      // One statement, the fence read in it: no transaction (an upsert of the latest ledgers, safe to repeat).
      (batch) => writeLedgers(alertPath, batch, fence),
      (batch) => batch.forEach((job) => job.done()),
    );
  }

  /**
   * Stores new states of the device's alerts; resolves to them with their cursors (none if the device is gone, or no
   * longer this instance's to write for).
   */
  append(deviceId: string, states: readonly NewState[]): Promise<RelayAlert[]> {
    return new Promise((done, failed) => this.states.add({ deviceId, states, done, failed }));
  }

  /** Stores the device's ledgers, of the watches it still has. */
  saveLedgers(deviceId: string, ledgers: readonly AlertLedger[]): Promise<void> {
    return new Promise((done, failed) => this.ledgers.add({ deviceId, ledgers, done, failed }));
  }

  /** Resolves once everything handed over so far is stored (or has failed). */
  async idle(): Promise<void> {
    // Stored states let their devices hand over ledgers: until both lanes are quiet.
    do await Promise.all([this.states.idle(), this.ledgers.idle()]);
    while (this.states.busy || this.ledgers.busy);
  }
}

interface WrittenStates {
  readonly stored: Map<StatesJob, RelayAlert[]>;
  /** Devices held by their push service (a 429 with Retry-After), until when. */
  readonly heldUntil: ReadonlyMap<string, number>;
}

/** Tells each job its stored states; returns them all, to be sent. */
function storedStates(batch: readonly StatesJob[], { stored, heldUntil }: WrittenStates): QueuedSend[] {
  const sends: QueuedSend[] = [];
  for (const job of batch) {
    const alerts = stored.get(job) ?? [];
    alerts.forEach((alert, index) => {
      if (job.states[index]!.entry.quiet) return;
      sends.push({
        deviceId: job.deviceId,
        cursor: Number(alert.cursor),
        tries: 0,
        urgency: job.states[index]!.urgency,
        alert,
        notBefore: heldUntil.get(job.deviceId) ?? 0,
      });
    });
    job.done(alerts);
  }
  return sends;
}

/** The jobs of the devices the fence lets this instance write for (all of them with no fence). */
async function fenced<T extends { readonly deviceId: string }>(
  sql: Sql,
  batch: readonly T[],
  fence: WriteFence | undefined,
): Promise<readonly T[]> {
  if (!fence || batch.length === 0) return batch;
  const allowed = await fence.allowed(sql, [...new Set(batch.map((job) => job.deviceId))]);
  return batch.filter((job) => allowed.has(job.deviceId));
}

async function writeStates(
  sql: Sql,
  batch: readonly StatesJob[],
  claimer: string | null,
  fence: WriteFence | undefined,
): Promise<WrittenStates> {
  const stored = new Map<StatesJob, RelayAlert[]>();
  const allowed = await fenced(sql, batch, fence);
  // Several instances: another's write for one of these devices (a takeover under way) may be waiting to commit.
  // Their rows are locked first, in id order, so that appendClaimed's statement starts after it: a statement sees
  // rows as they were when it began, and would leave that write's older state of an alert queued beside its newer.
  if (fence && allowed.length > 0)
    await sql.query('SELECT id FROM devices WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE', [
      [...new Set(allowed.map((job) => job.deviceId))],
    ]);
  const states = allowed.flatMap((job) =>
    job.states.map((state) => ({
      job,
      deviceId: job.deviceId,
      ...state,
      quiet: state.entry.quiet === true,
      // Each alert's newest state is its state too (appendClaimed writes it in the same statement).
      entry: encode(state.entry),
    })),
  );
  const { stored: appended, heldUntil } = await appendClaimed(sql, states, claimer);
  // An alert whose every delivery left the kept log is history: its state goes too (a statement of its own, and
  // only for the few devices past the kept length: in the same statement it would meet the rows just written).
  const newest = new Map<string, number>();
  states.forEach((state, index) => {
    const alert = appended[index];
    if (!alert) return;
    stored.set(state.job, [...(stored.get(state.job) ?? []), alert]);
    newest.set(state.deviceId, Math.max(newest.get(state.deviceId) ?? 0, Number(alert.cursor)));
  });
  const past = pastKeptLog(newest);
  if (past.length > 0)
    await sql.query(
      `DELETE FROM alert_states s USING unnest($1::text[], $2::bigint[]) AS n(device_id, upto)
        WHERE s.device_id = n.device_id AND s.cursor <= n.upto`,
      [past.map(([deviceId]) => deviceId), past.map(([, upto]) => upto)],
    );
  return { stored, heldUntil };
}

async function writeLedgers(sql: Sql, batch: readonly LedgersJob[], fence: WriteFence | undefined): Promise<void> {
  // One row per device and principal: a later ledger in the same batch wins.
  const ledgers = [
    ...new Map(
      batch.flatMap((job) =>
        job.ledgers.map((ledger) => [`${job.deviceId}\n${ledger.network}\n${ledger.principal}`, { job, ledger }]),
      ),
    ).values(),
  ];
  if (ledgers.length === 0) return;
  // Only watches still listed keep a ledger: a device deleted meanwhile stores nothing; nor one fenced off.
  await sql.query(
    `INSERT INTO ledgers (device_id, network, principal, ledger)
       SELECT d, n, p, l FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS t(d, n, p, l)
        WHERE EXISTS (SELECT 1 FROM watches w WHERE w.device_id = d AND w.network = n AND w.principal = p)
          ${fence ? `AND ${fence.holds('d', '$5')}` : ''}
     ON CONFLICT (device_id, network, principal) DO UPDATE SET ledger = excluded.ledger`,
    [
      ledgers.map(({ job }) => job.deviceId),
      ledgers.map(({ ledger }) => ledger.network),
      ledgers.map(({ ledger }) => ledger.principal),
      ledgers.map(({ ledger }) => encode(ledger)),
      ...(fence ? [fence.owner] : []),
    ],
  );
}
