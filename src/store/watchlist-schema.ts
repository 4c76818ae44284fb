import { readStoredPrincipal, type ReadPrincipal } from '../domain/address/address-shape.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { readWatchEntry, type WatchEntry } from '../domain/watch/watch-entry.ts';
import type { WatchList } from '../domain/watch/watchlist.ts';
import { isRecord } from '../domain/is-record.ts';

/**
 * Stored watch list records.
 * - v1: `{ version: 1, addresses: [{ address, label? }] }` — addresses only; network and kind were derived on read.
 * - v2: `{ schemaVersion: 2, entries: WatchEntry[] }` — each entry bound to its network, with its kind and time.
 */
export const WATCHLIST_SCHEMA_VERSION = 2;

export interface WatchlistRecord {
  readonly schemaVersion: typeof WATCHLIST_SCHEMA_VERSION;
  readonly entries: WatchList;
}

export type SchemaError =
  { readonly kind: 'newer'; readonly version: number } | { readonly kind: 'unreadable'; readonly reason: string };

export interface Upgraded {
  readonly entries: WatchList;
  /** The version the record was migrated from, or null when it was current. */
  readonly migratedFrom: number | null;
  /** Entries that could not be read, with why; the raw record is backed up by the caller. */
  readonly dropped: readonly string[];
}

export const toRecord = (entries: WatchList): WatchlistRecord => ({ schemaVersion: WATCHLIST_SCHEMA_VERSION, entries });

/** Whether a record predates canonical storage: its addresses need the full parser (`typed`) to be read. */
export const needsFullParser = (raw: unknown): boolean => isRecord(raw) && raw['version'] === 1;

/**
 * Brings any stored record to the current schema. Pure: the caller persists the result and any backup. A current
 * record's principals were canonical when stored: their shape is checked; a v1 record's are read by `typed`.
 */
export function upgradeWatchlistRecord(
  raw: unknown,
  now: number,
  typed?: ReadPrincipal,
): Result<Upgraded, SchemaError> {
  if (!isRecord(raw)) return err({ kind: 'unreadable', reason: 'it is not a record' });
  const version = raw['schemaVersion'] ?? raw['version'];
  if (typeof version !== 'number') return err({ kind: 'unreadable', reason: 'it has no schema version' });
  if (version > WATCHLIST_SCHEMA_VERSION) return err({ kind: 'newer', version });
  if (version === 2) return readEntries(raw['entries'], now, null, readStoredPrincipal);
  if (version === 1)
    return typed
      ? readEntries(raw['addresses'], now, 1, typed)
      : err({ kind: 'unreadable', reason: 'a version 1 record needs the full address parser' });
  return err({ kind: 'unreadable', reason: `unknown schema version ${version}` });
}

function readEntries(
  raw: unknown,
  now: number,
  migratedFrom: number | null,
  read: ReadPrincipal,
): Result<Upgraded, SchemaError> {
  if (!Array.isArray(raw)) return err({ kind: 'unreadable', reason: 'its entries are not a list' });
  const entries: WatchEntry[] = [];
  const seen = new Set<string>();
  const dropped: string[] = [];
  for (const item of raw) {
    const entry = readWatchEntry(item, now, read);
    if (!entry.ok) dropped.push(entry.error);
    else if (!seen.has(entry.value.principal)) {
      seen.add(entry.value.principal);
      entries.push(entry.value);
    }
  }
  return ok({ entries, migratedFrom, dropped });
}
