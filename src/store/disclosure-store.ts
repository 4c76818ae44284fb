import { clear, delMany, entries, keys, update, type UseStore } from 'idb-keyval';
import {
  hostsToForget,
  MAX_HOSTS,
  mergeHostRecords,
  readHostRecord,
  type HostRecord,
} from '../domain/privacy/disclosure-record.ts';
import { openPrivacyDatabase } from './keys.ts';

/** Where the privacy record is kept: one entry per host. */
export interface DisclosureStore {
  load(): Promise<HostRecord[]>;
  /** Folds these into what is kept, each host in one transaction: two tabs adding at once both count. */
  add(records: readonly HostRecord[]): Promise<void>;
  clear(): Promise<void>;
}

const VERSION = 1;

/** The record in its own IndexedDB database, by origin, versioned; an unreadable entry is skipped, never thrown. */
export class IdbDisclosureStore implements DisclosureStore {
  constructor(private readonly db: UseStore = openPrivacyDatabase()) {}

  async load(): Promise<HostRecord[]> {
    const found: HostRecord[] = [];
    for (const [, value] of await entries<string, unknown>(this.db)) {
      const stored = value as { version?: unknown; record?: unknown } | null;
      const record = stored?.version === VERSION ? readHostRecord(stored.record) : null;
      if (record) found.push(record);
    }
    return found;
  }

  async add(records: readonly HostRecord[]): Promise<void> {
    await Promise.all(
      records.map((record) =>
        update<unknown>(
          record.origin,
          (old) => {
            const stored = old as { version?: unknown; record?: unknown } | undefined;
            const known = stored?.version === VERSION ? readHostRecord(stored.record) : null;
            return { version: VERSION, record: mergeHostRecords(known ?? undefined, record) };
          },
          this.db,
        ),
      ),
    );
    if ((await keys(this.db)).length > MAX_HOSTS) await delMany(hostsToForget(await this.load()), this.db);
  }

  clear(): Promise<void> {
    return clear(this.db);
  }
}

/** The same in memory, for tests. */
export class MemoryDisclosureStore implements DisclosureStore {
  readonly records = new Map<string, HostRecord>();

  async load(): Promise<HostRecord[]> {
    return [...this.records.values()];
  }

  async add(records: readonly HostRecord[]): Promise<void> {
    for (const record of records)
      this.records.set(record.origin, mergeHostRecords(this.records.get(record.origin), record));
    for (const origin of hostsToForget(this.records.values())) this.records.delete(origin);
  }

  async clear(): Promise<void> {
    this.records.clear();
  }
}
