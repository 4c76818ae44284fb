import { entries, set, setMany, type UseStore } from 'idb-keyval';

/**
 * Small facts learned from a node that never change (a token's decimals, an address's BNS name), kept in memory
 * and in IndexedDB, shared with the other tabs; screens re-render when one arrives (`version`).
 */
export class CachedRecords<T> {
  private readonly known = new Map<string, T>();
  private readonly listeners = new Set<() => void>();
  version = 0;

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

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private changed(): void {
    this.version += 1;
    this.listeners.forEach((listener) => listener());
  }
}
