import { entries, set, setMany, type UseStore } from 'idb-keyval';
import { createStore, type Readable } from '../domain/create-store.ts';

/**
 * Small facts learned from a node that never change (a token's decimals, an address's BNS name), kept in memory
 * and in IndexedDB, shared with the other tabs; screens follow `changes` to read again when one arrives.
 */
export class CachedRecords<T> {
  private readonly known = new Map<string, T>();
  private readonly arrivals = createStore(0);
  /** Counts what arrived. */
  readonly changes: Readable<number> = this.arrivals;

  constructor(
    private readonly db: UseStore,
    private readonly channel: BroadcastChannel | null,
    private readonly what: string,
  ) {
    channel?.addEventListener('message', () => void this.load());
  }

  async load(): Promise<void> {
    for (const [key, value] of await entries<string, T>(this.db)) this.known.set(key, value);
    this.changed();
  }

  protected read(key: string): T | undefined {
    return this.known.get(key);
  }

  has(key: string): boolean {
    return this.known.has(key);
  }

  async add(key: string, value: T): Promise<void> {
    this.known.set(key, value);
    this.changed();
    await set(key, value, this.db).then(
      () => this.channel?.postMessage('changed'),
      (error: unknown) => console.warn(`Could not keep ${this.what}`, error),
    );
  }

  /** Writes every record in memory again (the stored ones were deleted under the app). */
  async resave(): Promise<void> {
    if (this.known.size > 0) await setMany([...this.known], this.db);
  }

  private changed(): void {
    this.arrivals.update((count) => count + 1);
  }
}
