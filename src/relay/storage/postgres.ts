import type PgModule from 'pg';
import { listenOn } from './postgres-listen.ts';
import { dropClient, endClient, never } from './postgres-sockets.ts';
import { settlesWithin } from '../settles-within.ts';
import { POSTGRES_LIMITS, type PostgresLimits, type StatementLimits, type Workload } from './postgres-limits.ts';
import { databaseSize, type Database, type Sql } from './sql.ts';

type Pg = typeof PgModule;

/**
 * PostgreSQL through `pg`, with the limits of postgres-limits.ts: one pool for the alert path and one for the rest,
 * so that neither waits for the other's connections, and a connection of its own for each maintenance statement.
 */
export async function openPostgres(
  url: string,
  report: (problem: string) => void,
  given: Partial<PostgresLimits> = {},
): Promise<Database> {
  const limits = { ...POSTGRES_LIMITS, ...given };
  const { default: pg } = await import('pg');
  // bigint columns come back as strings by default; every one the relay keeps fits a double (heights, ms, cursors).
  pg.types.setTypeParser(20, (value) => Number(value));
  const connection = (statements: StatementLimits | null): PgModule.ClientConfig => ({
    connectionString: url,
    connectionTimeoutMillis: limits.connectMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: limits.keepAliveDelayMs,
    idle_in_transaction_session_timeout: limits.idleInTransactionMs,
    ...(statements ? { statement_timeout: statements.statementMs, query_timeout: statements.queryMs } : {}),
  });
  let closing = false;
  const failed = (error: Error) => {
    if (!closing) report(`a PostgreSQL connection failed: ${error.message}`);
  };
  /** Every connection open, so that closing can cut those whose peer vanished. */
  const open = new Set<PgModule.ClientBase>();
  const opened = (client: PgModule.ClientBase) => {
    open.add(client);
    client.on('end', () => open.delete(client));
  };
  const poolOf = (statements: StatementLimits, max: number): PgModule.Pool => {
    // The connection timeout also bounds the wait for a free connection: every statement on them is bounded, so a
    // wait past it means the database cannot keep up, and the work fails to be retried rather than queue unseen.
    const pool = new pg.Pool({ ...connection(statements), max, idleTimeoutMillis: limits.idleMs });
    // An idle connection the server closed (a restart, an admin shutdown) is replaced on the next query; without a
    // listener its error would end the process.
    pool.on('error', failed);
    // A connection lost while checked out (in a transaction when the server stops) also emits its error on the
    // client, where the pool no longer listens: unheard, it would end the process. Its query fails and is retried.
    pool.on('connect', (client) => {
      client.on('error', failed);
      opened(client);
    });
    return pool;
  };
  const pools = { alertPath: poolOf(limits.alertPath, 8), routine: poolOf(limits.routine, 4) };
  const fate = (xid: string) => committed(pools.alertPath, xid, () => closing);
  const onPool = (pool: PgModule.Pool): Connections => ({
    query: async (text, params) => (closing ? never() : (await pool.query(text, [...params])).rows),
    checkOut: async () => {
      if (closing) return never();
      const client = await pool.connect();
      // Released with an error, a client is closed and dropped from the pool rather than handed out again.
      return { client, release: (broken) => client.release(broken === null ? undefined : toError(broken)) };
    },
  });
  // A client of its own, connected for one statement or transaction and ended after.
  const alone: Connections = {
    query: async (text, params) => {
      const { client, release } = await alone.checkOut();
      let broken: unknown = null;
      try {
        return (await client.query(text, [...params])).rows;
      } catch (error) {
        broken = error;
        throw error;
      } finally {
        release(broken);
      }
    },
    checkOut: async () => {
      if (closing) return never();
      const client = new pg.Client(connection(null));
      client.on('error', failed);
      opened(client);
      try {
        await client.connect();
        await client.query('SET statement_timeout = 0');
      } catch (error) {
        dropClient(client);
        throw error;
      }
      return { client, release: () => void endClient(client, limits.connectMs) };
    },
  };
  try {
    await pools.routine.query('SELECT 1');
  } catch (error) {
    await Promise.all([pools.alertPath.end(), pools.routine.end()]);
    throw error;
  }
  const views = new Map<Workload, Database>();
  const view = (connections: Connections): Database => {
    const sql: Sql = {
      query: async <Row>(text: string, params: readonly unknown[] = []) =>
        (await connections.query(text, params)) as Row[],
    };
    return {
      kind: 'postgres',
      ...sql,
      transaction: (work) => inTransaction(pg, connections, work, fate),
      size: () => databaseSize(sql),
      listen: (channel, heard, connected) =>
        listenOn(pg, connection(limits.alertPath), channel, heard, connected, report, {
          heartbeatMs: limits.listenHeartbeatMs,
          endMs: limits.connectMs,
        }),
      within: (workload) => views.get(workload)!,
      close: async () => {
        if (closing) return;
        closing = true;
        // A goodbye within the connection limit; past it, the peer is taken for gone and every socket is cut (the
        // statements on them fail, and what is retried meets a closed database: it waits for ever, as in a process
        // that ended). What was committed stays; what was not is judged again by the next start.
        const ended = Promise.all([pools.alertPath.end(), pools.routine.end()]);
        if (await settlesWithin(ended, limits.connectMs)) return;
        for (const client of open) dropClient(client);
        await settlesWithin(ended, limits.connectMs);
      },
    };
  };
  views.set('alert-path', view(onPool(pools.alertPath)));
  views.set('routine', view(onPool(pools.routine)));
  views.set('maintenance', view(alone));
  return views.get('routine')!;
}

/** Where a view's statements run: straight on a connection, or on one checked out for a transaction. */
interface Connections {
  query(text: string, params: readonly unknown[]): Promise<unknown[]>;
  checkOut(): Promise<{ client: PgModule.ClientBase; release(broken: unknown): void }>;
}

/**
 * Runs `work` in one transaction. A connection that failed to answer (a query timed out, the socket broke) is in no
 * known state: it is closed, never handed out again, and no ROLLBACK is sent down it (the server rolls back when the
 * session ends). A COMMIT whose answer never came may have committed or not, and retrying a write that did would
 * store it twice (an alert's state under a second cursor): the transaction's id, read as it begins, is looked up on
 * another connection until the server says which (`fate`), and the transaction resolves or fails accordingly.
 */
async function inTransaction<T>(
  pg: Pg,
  connections: Connections,
  work: (sql: Sql) => Promise<T>,
  fate: (xid: string) => Promise<boolean>,
): Promise<T> {
  const { client, release } = await connections.checkOut();
  let broken: unknown = null;
  let released = false;
  const letGo = () => {
    if (released) return;
    released = true;
    release(broken);
  };
  // A statement the server answered, even with an error, leaves the connection good; any other failure does not.
  const answered = async <R>(statement: Promise<R>): Promise<R> => {
    try {
      return await statement;
    } catch (error) {
      if (!(error instanceof pg.DatabaseError)) broken ??= error;
      throw error;
    }
  };
  try {
    const began = (await answered(client.query('BEGIN; SELECT pg_current_xact_id()::text AS xid'))) as unknown as [
      unknown,
      PgModule.QueryResult<{ xid: string }>,
    ];
    const xid = began[1].rows[0]!.xid;
    const result = await work({
      query: async <Row>(text: string, params: readonly unknown[] = []) =>
        (await answered(client.query(text, [...params]))).rows as Row[],
    });
    try {
      await answered(client.query('COMMIT'));
    } catch (error) {
      if (!broken) throw error;
      // Its connection is given back (closed) first: the question needs one, and transactions in doubt together
      // must not hold every connection of the pool while they ask.
      letGo();
      if (await fate(xid)) return result;
      throw error;
    }
    return result;
  } catch (error) {
    if (!broken) await client.query('ROLLBACK').catch((failed: unknown) => (broken = failed));
    throw error;
  } finally {
    letGo();
  }
}

/** How often the fate of a COMMIT in doubt is asked again: until the server knows, or can be reached again. */
const FATE_RETRY_MS = { firstMs: 100, maxMs: 5_000 };

/**
 * Whether transaction `xid` committed, asked until the server knows: `in progress` while its session lives on (the
 * COMMIT still on its way, or the session idle in the transaction until idle_in_transaction_session_timeout ends it).
 */
async function committed(pool: PgModule.Pool, xid: string, closed: () => boolean): Promise<boolean> {
  for (let wait = FATE_RETRY_MS.firstMs; ; wait = Math.min(wait * 2, FATE_RETRY_MS.maxMs)) {
    if (closed()) return never();
    try {
      const { rows } = await pool.query<{ status: string | null }>('SELECT pg_xact_status($1::xid8) AS status', [xid]);
      const status = rows[0]?.status ?? null;
      if (status === 'committed') return true;
      if (status !== 'in progress') return false;
    } catch {
      // The database still away: asked again.
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

const toError = (failure: unknown): Error => (failure instanceof Error ? failure : new Error(String(failure)));
