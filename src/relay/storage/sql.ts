import { mkdir } from 'node:fs/promises';
import type PgModule from 'pg';

/** The one query layer both databases answer: positional parameters ($1, $2, …), rows as plain objects. */
export interface Sql {
  query<Row = Record<string, unknown>>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Database extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs `work` in one transaction: all of it is stored, or none. */
  transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T>;
  /** Bytes the relay's tables take. */
  size(): Promise<number>;
  /**
   * PostgreSQL only: hears `NOTIFY channel` on a connection of its own, connected again (after a pause) when it
   * drops; `connected` runs on each (re)connection, when notifications sent meanwhile may have been missed.
   */
  listen?(channel: string, heard: (payload: string) => void, connected: () => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export type DatabaseChoice = { readonly url: string } | { readonly dataDir: string };

/** PostgreSQL when a URL is given (`DATABASE_URL`), else PGlite embedded in the data directory. */
export async function openDatabase(
  choice: DatabaseChoice,
  report: (problem: string) => void = (problem) => console.warn(`relay: ${problem}`),
): Promise<Database> {
  if ('url' in choice) return openPostgres(choice.url, report);
  await mkdir(choice.dataDir, { recursive: true, mode: 0o700 });
  return openPglite(`${choice.dataDir}/pgdata`);
}

async function openPglite(dir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  const wrap = (run: { query: PGliteQuery }): Sql => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) => (await run.query<Row>(text, [...params])).rows,
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    size: () => databaseSize(wrap(db)),
    close: () => db.close(),
  };
}
type PGliteQuery = <Row>(text: string, params: unknown[]) => Promise<{ rows: Row[] }>;

async function openPostgres(url: string, report: (problem: string) => void): Promise<Database> {
  const { default: pg } = await import('pg');
  // bigint columns come back as strings by default; every one the relay keeps fits a double (heights, ms, cursors).
  pg.types.setTypeParser(20, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  // An idle connection the server closed (a restart, an admin shutdown) is replaced on the next query; without a
  // listener its error would end the process.
  let closing = false;
  const failed = (error: Error) => {
    if (!closing) report(`a PostgreSQL connection failed: ${error.message}`);
  };
  pool.on('error', failed);
  // A connection lost while checked out (in a transaction when the server stops) also emits its error on the
  // client, where the pool no longer listens: unheard, it would end the process. Its query fails and is retried.
  pool.on('connect', (client) => client.on('error', failed));
  await pool.query('SELECT 1');
  const sql: Sql = {
    query: async <Row>(text: string, params: readonly unknown[] = []) =>
      (await pool.query(text, [...params])).rows as Row[],
  };
  return {
    kind: 'postgres',
    ...sql,
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await work({
          query: async <Row>(text: string, params: readonly unknown[] = []) =>
            (await client.query(text, [...params])).rows as Row[],
        });
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
    size: () => databaseSize(sql),
    listen: (channel, heard, connected) => listenOn(pg, url, channel, heard, connected, report),
    close: () => {
      closing = true;
      return pool.end();
    },
  };
}

async function listenOn(
  pg: typeof PgModule,
  url: string,
  channel: string,
  heard: (payload: string) => void,
  connected: () => void,
  report: (problem: string) => void,
): Promise<() => Promise<void>> {
  let client: PgModule.Client | null = null;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | null = null;
  const open = async (): Promise<void> => {
    const opened = new pg.Client({ connectionString: url });
    opened.on('notification', (message) => {
      if (message.channel === channel) heard(message.payload ?? '');
    });
    const lost = (error?: Error) => {
      if (client !== opened || closed) return;
      client = null;
      report(`the PostgreSQL connection that hears other instances dropped${error ? `: ${error.message}` : ''}`);
      retry = setTimeout(() => void reopen(), 1_000);
    };
    opened.on('error', lost);
    opened.on('end', () => lost());
    try {
      await opened.connect();
      await opened.query(`LISTEN ${channel}`);
    } catch (error) {
      await opened.end().catch(() => undefined);
      throw error;
    }
    client = opened;
    if (closed) await opened.end().catch(() => undefined);
  };
  const reopen = async (): Promise<void> => {
    if (closed) return;
    try {
      await open();
      connected();
    } catch (error) {
      client = null;
      if (!closed) {
        report(`could not listen to other instances again: ${(error as Error).message}`);
        retry = setTimeout(() => void reopen(), 1_000);
      }
    }
  };
  await open();
  return async () => {
    closed = true;
    if (retry) clearTimeout(retry);
    await client?.end().catch(() => undefined);
  };
}

async function databaseSize(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ bytes: number | string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`,
  );
  return Number(row?.bytes ?? 0);
}
