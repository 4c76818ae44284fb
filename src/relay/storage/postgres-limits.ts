/**
 * How long the relay waits for PostgreSQL, by what a statement is. Without limits a statement on a connection whose
 * peer vanished (a host gone without a FIN, a network split, a hung server) waits for the operating system (many
 * minutes, or for ever while nothing is unacknowledged), and every alert written after it waits behind it.
 *
 * Each limit is a pair: the server cancels a statement past `statementMs` (`statement_timeout`: a clean error, the
 * transaction rolled back, the connection still good), and the client gives up `queryMs` after sending it (pg's
 * `query_timeout`), a little later, which only a server that cannot answer reaches: that connection is then closed,
 * never handed out again, and the work is retried on a new one like any storage failure (keep-trying.ts).
 *
 * - `alertPath`: what every later alert waits behind, all of it batched and bounded: a block's alert states (128
 *   devices' at most a transaction) and ledgers, told marks, the resume anchor and facts, the partition leases and
 *   claims, the health probe. The largest of these measured ~100 ms at 10,000 devices (docs/relay-at-scale.md), so
 *   4 s is 40 times that; and a lease round cut at 5 s leaves its next round (2 s later) within the lease's 8 s.
 * - `routine`: the rest of the relay's queries (a registration of 1,000 watches, a catch-up, the startup reads of
 *   every device and watch, snapshots after a catch-up, the health figures, the admin routes): a minute, for the reads
 *   that grow with the database; a vanished peer is still found within one.
 * - `maintenance`: schema migrations and the hourly sweep of expired devices run on a connection of their own with no
 *   statement limit: their cost grows with the tables, and cut short they would roll back and fail the same way at
 *   every try. Only TCP keepalive finds a vanished peer under them (after the OS's probes: about 11 minutes on Linux's
 *   defaults), at start or in the hourly sweep, where no alert waits.
 *
 * The rest applies to every connection: a connection attempt (TCP, TLS, authentication) gets 5 s, ample on a network
 * that works, after which it fails and is retried; keepalive probes start after 10 s of silence; a pooled connection
 * idle for 30 s is closed (kept across a block's quiet seconds, so a block does not reconnect); and the server ends a
 * session idle inside a transaction for 30 s, so that a relay that vanished mid-transaction does not hold its row and
 * advisory locks (the caps, the leases, a migration) over every other instance for hours.
 *
 * The connection that hears other instances (LISTEN) idles between notifications, where neither limit applies: it is
 * asked a `SELECT 1` every 5 s under the alert path's limits, so a vanished peer drops it within about 10 s; it then
 * connects again, and every device is read again for what was notified meanwhile. Closing gives the server
 * `connectMs` to say goodbye, then cuts every socket: a peer that vanished never answers a goodbye. The relay's own
 * transactions idle only while its event loop is stalled (8 s seen on a loaded CI machine): one ended so is rolled
 * back and retried.
 *
 * Constants, not options: nothing about a deployment changes what the relay's own statements cost. Tests pass smaller
 * ones (RelayHooks.databaseLimits) to make a vanished database fail in milliseconds.
 */
export interface PostgresLimits {
  readonly connectMs: number;
  readonly keepAliveDelayMs: number;
  readonly idleMs: number;
  readonly idleInTransactionMs: number;
  /** How often the idle connection that hears other instances is asked a `SELECT 1` (postgres-listen.ts). */
  readonly listenHeartbeatMs: number;
  readonly alertPath: StatementLimits;
  readonly routine: StatementLimits;
}

export interface StatementLimits {
  /** The server's `statement_timeout`. */
  readonly statementMs: number;
  /** The client's `query_timeout`: longer, so that a server that can answer cancels first. */
  readonly queryMs: number;
}

export const POSTGRES_LIMITS: PostgresLimits = {
  connectMs: 5_000,
  keepAliveDelayMs: 10_000,
  idleMs: 30_000,
  idleInTransactionMs: 30_000,
  listenHeartbeatMs: 5_000,
  alertPath: { statementMs: 4_000, queryMs: 5_000 },
  routine: { statementMs: 60_000, queryMs: 65_000 },
};

/** What a statement is, for its limits: `routine` unless said otherwise (Database.within). */
export type Workload = 'alert-path' | 'routine' | 'maintenance';
