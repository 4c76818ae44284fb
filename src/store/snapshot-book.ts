import { delMany, entries, getMany, setMany, type UseStore } from 'idb-keyval';
import type { Network } from '../domain/network.ts';
import { emptySnapshot, type AddressSnapshot } from '../domain/snapshot.ts';
import { openSnapshotDatabase } from './keys.ts';

const SNAPSHOT_VERSION = 1;
/**
 * Snapshots are written a moment after they change: a burst of events is one write, and an alert's inbox record
 * (its outbox) never queues behind a large snapshot in IndexedDB. A tab closed within it only re-syncs.
 */
const FLUSH_DELAY_MS = 100;
interface StoredSnapshot {
  readonly version: typeof SNAPSHOT_VERSION;
  readonly snapshot: AddressSnapshot;
}

/**
 * Every watched principal's snapshot, in memory for the screens and in IndexedDB (one record per principal) so
 * that the app opens with the last known state, online or not. Writes are batched behind the changes.
 */
export class SnapshotBook {
  private readonly snapshots = new Map<string, AddressSnapshot>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly anyListeners = new Set<() => void>();
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | null = null;
  /** Increments on every change, so views of all snapshots know when to refresh. */
  version = 0;

  /**
   * With a channel, the book tells other tabs which snapshots it stored, and reads again those another tab stored:
   * one tab runs the engine, the others follow through IndexedDB.
   */
  constructor(
    private readonly db: UseStore = openSnapshotDatabase(),
    private readonly channel: BroadcastChannel | null = null,
  ) {
    channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (Array.isArray(event.data)) void this.reread(event.data.filter((key) => typeof key === 'string'));
    });
  }

  /** Reads some principals' records again (another tab stored them). */
  async reread(principals: readonly string[]): Promise<void> {
    const values = await getMany<StoredSnapshot | undefined>([...principals], this.db);
    principals.forEach((principal, index) => {
      const value = values[index];
      if (value?.version === SNAPSHOT_VERSION) this.snapshots.set(principal, value.snapshot);
      else this.snapshots.delete(principal);
    });
    this.notify(principals);
  }

  /** Reads every stored snapshot; records of an unknown version are ignored (they are rebuilt by the next sync). */
  async load(): Promise<void> {
    for (const [key, value] of await entries<string, StoredSnapshot>(this.db)) {
      if (value?.version === SNAPSHOT_VERSION && !this.snapshots.has(key)) this.snapshots.set(key, value.snapshot);
    }
    this.notify([...this.snapshots.keys()]);
  }

  get(principal: string): AddressSnapshot | undefined {
    return this.snapshots.get(principal);
  }

  all(): AddressSnapshot[] {
    return [...this.snapshots.values()];
  }

  subscribe(principal: string, listener: () => void): () => void {
    let set = this.listeners.get(principal);
    if (!set) this.listeners.set(principal, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  readonly subscribeAll = (listener: () => void): (() => void) => {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  };

  update(principal: string, network: Network, change: (snapshot: AddressSnapshot) => AddressSnapshot): AddressSnapshot {
    const before = this.snapshots.get(principal) ?? emptySnapshot(principal, network);
    const after = change(before);
    if (after === before && this.snapshots.has(principal)) return before;
    this.snapshots.set(principal, after);
    this.dirty.add(principal);
    this.flushing ??= new Promise((resolve) => setTimeout(resolve, FLUSH_DELAY_MS)).then(() => this.flush());
    this.notify([principal]);
    return after;
  }

  /** Forgets principals no longer watched. */
  async forget(principals: readonly string[]): Promise<void> {
    principals.forEach((principal) => this.snapshots.delete(principal));
    await delMany([...principals], this.db);
    this.channel?.postMessage([...principals]);
    this.notify([...principals]);
  }

  /** Resolves once every change so far is in IndexedDB. */
  async saved(): Promise<void> {
    while (this.flushing) await this.flushing;
  }

  private async flush(): Promise<void> {
    while (this.dirty.size > 0) {
      const batch = [...this.dirty];
      this.dirty.clear();
      const records = batch.flatMap((principal): [string, StoredSnapshot][] => {
        const snapshot = this.snapshots.get(principal);
        return snapshot ? [[principal, { version: SNAPSHOT_VERSION, snapshot }]] : [];
      });
      try {
        await setMany(records, this.db);
        this.channel?.postMessage(batch);
      } catch (error) {
        console.warn('Could not store address snapshots; they stay in memory.', error);
      }
    }
    this.flushing = null;
  }

  private notify(principals: readonly string[]): void {
    this.version += 1;
    for (const principal of principals) this.listeners.get(principal)?.forEach((listener) => listener());
    this.anyListeners.forEach((listener) => listener());
  }
}
