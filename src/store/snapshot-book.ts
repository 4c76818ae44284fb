import { delMany, entries, getMany, setMany, type UseStore } from 'idb-keyval';
import { createStore, type Readable } from '../domain/create-store.ts';
import type { Network } from '../domain/network.ts';
import { middleEllipsis } from '../domain/address/middle-ellipsis.ts';
import { emptySnapshot, type AddressSnapshot } from '../domain/state/snapshot.ts';
import { DATABASES, openSnapshotDatabase } from './keys.ts';
import { readSnapshotRecord, SNAPSHOT_VERSION } from '../domain/record-shapes.ts';
import { storageHealth, type StorageHealthBoard } from './storage-health.ts';

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
  private readonly dirty = new Set<string>();
  private flushing: Promise<void> | null = null;
  /** Whether this tab runs the engine (see lead): it writes the snapshots, and no other tab's replace its own. */
  private leading = false;
  private readonly counter = createStore(0);
  /** Each principal's followers (subscribe), told of its changes only. */
  private readonly followers = new Map<string, Set<() => void>>();
  private readonly views = new Map<string, Readable<AddressSnapshot | undefined>>();
  /**
   * Counts changes, so that views of all snapshots know when to refresh. A snapshot is replaced, never changed in
   * place: one principal's followers compare `get(principal)` with what they read last.
   */
  readonly changes: Readable<number> = this.counter;

  /**
   * With a channel, the book tells other tabs which snapshots it stored, and reads again those another tab stored:
   * one tab runs the engine, the others follow through IndexedDB.
   */
  constructor(
    private readonly db: UseStore = openSnapshotDatabase(),
    private readonly channel: BroadcastChannel | null = null,
    private readonly health: StorageHealthBoard = storageHealth,
  ) {
    channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (Array.isArray(event.data)) void this.reread(event.data.filter((key) => typeof key === 'string'));
    });
  }

  /** Reads some principals' records again (another tab stored them); a leading book has none to read. */
  async reread(principals: readonly string[]): Promise<void> {
    if (this.leading) return;
    const values = await getMany<unknown>([...principals], this.db);
    // Read before this tab took over but answered after: what lead() read is as new, and changes made here newer.
    if (this.leading) return;
    principals.forEach((principal, index) => {
      const snapshot = this.read(values[index], principal);
      if (snapshot) this.snapshots.set(principal, snapshot);
      else this.snapshots.delete(principal);
    });
    this.notify(principals);
  }

  /**
   * Reads every stored snapshot; records of an unknown version are ignored, and damaged ones named: either is
   * rebuilt by the next sync (the node is the authority; a snapshot is what the app last read from it).
   */
  async load(): Promise<void> {
    for (const [key, value] of await entries<string, unknown>(this.db)) {
      const snapshot = this.read(value, key);
      if (snapshot && !this.snapshots.has(key)) this.snapshots.set(key, snapshot);
    }
    this.notify();
  }

  /**
   * This tab runs the engine from now on (it holds the lock): every stored snapshot is read again, and from then on a
   * message of another tab reads nothing. The tab that led before stores its snapshots ahead of its alerts (a
   * transaction mined in a snapshot may not be told yet), and its last message may still be on its way (or lost as it
   * closed): the alerts' start-up replay (Alerter.start) must look at the snapshots as it left them, before the first
   * sync takes what they hold as known. A reread landing later would only put an older record over one changed here.
   */
  async lead(): Promise<void> {
    this.leading = true;
    let stored: [string, unknown][];
    try {
      stored = await entries<string, unknown>(this.db);
    } catch (error) {
      // Nothing is lost: the replay looks at what this book holds, and the first sync tells what it lacks.
      console.warn('Could not read the address snapshots again; going on with those in memory.', error);
      return;
    }
    const kept = new Set(this.dirty);
    for (const principal of this.snapshots.keys()) if (!kept.has(principal)) this.snapshots.delete(principal);
    for (const [principal, value] of stored) {
      const snapshot = kept.has(principal) ? undefined : this.read(value, principal);
      if (snapshot) this.snapshots.set(principal, snapshot);
    }
    this.notify();
  }

  /** Writes every snapshot in memory again (the stored ones were deleted under the app). */
  resave(): Promise<void> {
    for (const principal of this.snapshots.keys()) this.dirty.add(principal);
    // flush() ends by clearing `flushing`: it must run after the assignment, not inside it.
    this.flushing ??= Promise.resolve().then(() => this.flush());
    return this.saved();
  }

  private read(raw: unknown, principal: string): AddressSnapshot | undefined {
    if (raw === undefined) return undefined;
    const snapshot = readSnapshotRecord(raw, principal);
    if (snapshot.ok) return snapshot.value;
    this.health.reportDamage({
      record: `the last known state of ${middleEllipsis(principal)}`,
      reason: snapshot.error,
      instead: 'it is read again from the node',
      place: `${DATABASES.snapshots}/${principal}`,
      value: raw,
    });
    return undefined;
  }

  get(principal: string): AddressSnapshot | undefined {
    return this.snapshots.get(principal);
  }

  all(): AddressSnapshot[] {
    return [...this.snapshots.values()];
  }

  /**
   * Changes to one principal's snapshot. Only that principal's followers are called: a list of a thousand rows,
   * each following its own, costs one call a change, not a thousand.
   */
  subscribe(principal: string, listener: () => void): () => void {
    let last = this.get(principal);
    const heard = () => {
      const now = this.get(principal);
      if (now === last) return;
      last = now;
      listener();
    };
    const followers = this.followers.get(principal) ?? new Set<() => void>();
    this.followers.set(principal, followers);
    followers.add(heard);
    return () => {
      followers.delete(heard);
      if (followers.size === 0 && this.followers.get(principal) === followers) this.followers.delete(principal);
    };
  }

  /** One principal's snapshot as a store of its own (for useStore): the same object for the same principal. */
  of(principal: string): Readable<AddressSnapshot | undefined> {
    let view = this.views.get(principal);
    if (!view) {
      view = { get: () => this.get(principal), subscribe: (listener) => this.subscribe(principal, listener) };
      this.views.set(principal, view);
    }
    return view;
  }

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
    this.notify(principals);
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

  /** Tells the views of all snapshots, and the followers of the principals changed (every one's when not said). */
  private notify(principals?: readonly string[]): void {
    this.counter.update((count) => count + 1);
    for (const principal of principals ?? [...this.followers.keys()])
      this.followers.get(principal)?.forEach((listener) => listener());
  }
}
