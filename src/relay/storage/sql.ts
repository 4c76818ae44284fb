import { mkdir } from 'node:fs/promises';
import type { PostgresLimits, Workload } from './postgres-limits.ts';

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
  /**
   * The same database for statements of another workload (postgres-limits.ts): on PostgreSQL the alert path and
   * maintenance run on connections of their own, under their own time limits; on PGlite it is the database itself.
   */
  within(workload: Workload): Database;
  /** Closes it, whichever view is closed. */
  close(): Promise<void>;
}

export type DatabaseChoice = { readonly url: string } | { readonly dataDir: string };

/** PostgreSQL when a URL is given (`DATABASE_URL`), else PGlite embedded in the data directory. */
export async function openDatabase(
  choice: DatabaseChoice,
  report: (problem: string) => void = (problem) => console.warn(`relay: ${problem}`),
  /** PostgreSQL's time limits (postgres-limits.ts); tests make them short. */
  limits: Partial<PostgresLimits> = {},
): Promise<Database> {
  if ('url' in choice) {
    const { openPostgres } = await import('./postgres.ts');
    return openPostgres(choice.url, report, limits);
  }
  await mkdir(choice.dataDir, { recursive: true, mode: 0o700 });
  return openPglite(`${choice.dataDir}/pgdata`);
}

async function openPglite(dir: string): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dir);
  const wrap = (run: { query: PGliteQuery }): Sql => ({
    query: async <Row>(text: string, params: readonly unknown[] = []) => (await run.query<Row>(text, [...params])).rows,
  });
  // In this process: no peer to vanish, and one connection, so no workload waits on another's.
  const database: Database = {
    kind: 'pglite',
    ...wrap(db),
    transaction: (work) => db.transaction((tx) => work(wrap(tx))),
    size: () => databaseSize(wrap(db)),
    within: () => database,
    close: () => db.close(),
  };
  return database;
}
type PGliteQuery = <Row>(text: string, params: unknown[]) => Promise<{ rows: Row[] }>;

/** Bytes the relay's tables take. */
export async function databaseSize(sql: Sql): Promise<number> {
  const [row] = await sql.query<{ bytes: number | string }>(
    `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = current_schema() AND c.relkind = 'r'`,
  );
  return Number(row?.bytes ?? 0);
}
