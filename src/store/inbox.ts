import { entries, delMany, promisifyRequest, setMany, type UseStore } from 'idb-keyval';
import { createStore, type Readable } from '../domain/create-store.ts';
import { INBOX_LIMIT, newestFirst, unreadCount, type InboxEntry } from '../domain/alerts/inbox.ts';
import { DATABASES, openInboxDatabase } from './keys.ts';
import { readInboxRecord } from '../domain/record-shapes.ts';
import { storageHealth, type StorageHealthBoard } from './storage-health.ts';

type Change = (entry: InboxEntry | undefined) => InboxEntry | undefined;

/** What the screens read: every entry, newest first, and how many are unread. */
export interface InboxView {
  readonly entries: readonly InboxEntry[];
  readonly unread: number;
}

/**
 * The activity inbox: every alert with its read state, one IndexedDB record each (so that marking one read in a
 * tab and the engine's tab adding another never overwrite each other), mirrored in memory for the screens.
 * Every change is broadcast; the other tabs read the records again.
 */
export class Inbox {
  private readonly byId = new Map<string, InboxEntry>();
  private readonly state = createStore<InboxView>({ entries: [], unread: 0 });
  /** What the screens read and follow. */
  readonly view: Readable<InboxView> = this.state;
  private reloading: ReturnType<typeof setTimeout> | null = null;
  /** Each alert at first; the inbox's own rows once `countUnreadWith` is given them (after first paint). */
  private countUnread: (entries: readonly InboxEntry[]) => number = unreadCount;
  /** Counts this tab's own writes. */
  private changes = 0;

  constructor(
    private readonly db: UseStore = openInboxDatabase(),
    private readonly channel: BroadcastChannel | null = null,
    private readonly health: StorageHealthBoard = storageHealth,
  ) {
    channel?.addEventListener('message', () => this.reloadSoon());
  }

  /**
   * Reads every record again; if this tab changed some meanwhile, reads again (what it read may predate them). A
   * record that does not read is left out and named, and stays stored as it was (only entries read are written).
   */
  async load(): Promise<void> {
    let stored: [string, unknown][];
    let changes: number;
    do {
      changes = this.changes;
      stored = await entries<string, unknown>(this.db);
    } while (changes !== this.changes);
    this.byId.clear();
    for (const [id, raw] of stored) {
      const entry = readInboxRecord(raw, id);
      if (entry.ok) this.byId.set(id, entry.value);
      else
        this.health.reportDamage({
          record: 'an alert in the inbox',
          reason: entry.error,
          instead: 'it is left out of the inbox and kept as it was',
          place: `${DATABASES.inbox}/${id}`,
          value: raw,
        });
    }
    this.changed(false);
  }

  /** Writes every entry in memory again (the stored ones were deleted under the app). */
  async resave(): Promise<void> {
    if (this.byId.size === 0) return;
    this.changes += 1;
    await setMany([...this.byId], this.db);
    this.channel?.postMessage('changed');
  }

  /** Counts unread as the inbox lists them (a pair of alerts as one row): kept out of what loads before first paint. */
  countUnreadWith(count: (entries: readonly InboxEntry[]) => number): void {
    this.countUnread = count;
    this.changed(false);
  }

  readonly list = (): readonly InboxEntry[] => this.state.get().entries;
  get(id: string): InboxEntry | undefined {
    return this.byId.get(id);
  }
  readonly unread = (): number => this.state.get().unread;
  readonly subscribe = this.state.subscribe;

  /** Applies changes to some entries in one IndexedDB transaction; resolves once they are stored. */
  async change(changes: ReadonlyMap<string, Change>): Promise<InboxEntry[]> {
    if (changes.size === 0) return [];
    this.changes += 1;
    const written = await this.db('readwrite', (store) => updateAll(store, changes));
    for (const [id, entry] of written) {
      if (entry) this.byId.set(id, entry);
      else this.byId.delete(id);
    }
    await this.prune();
    this.changed(true);
    return written.flatMap(([, entry]) => (entry ? [entry] : []));
  }

  markRead(ids: readonly string[]): Promise<InboxEntry[]> {
    const unread = ids.filter((id) => this.byId.get(id)?.read === false);
    return this.change(new Map(unread.map((id) => [id, (entry) => entry && { ...entry, read: true }])));
  }

  markAllRead(): Promise<InboxEntry[]> {
    return this.markRead([...this.byId.keys()]);
  }

  /** Keeps the newest `INBOX_LIMIT` entries. */
  private async prune(): Promise<void> {
    if (this.byId.size <= INBOX_LIMIT) return;
    const old = [...this.byId.values()].sort(newestFirst).slice(INBOX_LIMIT);
    old.forEach((entry) => this.byId.delete(entry.id));
    await delMany(
      old.map((entry) => entry.id),
      this.db,
    );
  }

  private reloadSoon(): void {
    this.reloading ??= setTimeout(() => {
      this.reloading = null;
      void this.load().catch((error: unknown) => console.warn('Could not read the inbox', error));
    }, 50);
  }

  private changed(broadcast: boolean): void {
    const entries = [...this.byId.values()].sort(newestFirst);
    if (broadcast) this.channel?.postMessage('changed');
    this.state.set({ entries, unread: this.countUnread(entries) });
  }
}

/**
 * Reads each record, writes its change, and resolves with what was written once the transaction commits; rejects
 * when it does not (a write refused, over the quota, the connection closed), so that the caller tries again.
 */
function updateAll(
  store: IDBObjectStore,
  changes: ReadonlyMap<string, Change>,
): Promise<[string, InboxEntry | undefined][]> {
  const committed = promisifyRequest(store.transaction);
  return new Promise((resolve, reject) => {
    committed.catch(reject);
    const written: [string, InboxEntry | undefined][] = [];
    let left = changes.size;
    for (const [id, change] of changes) {
      const request = store.get(id);
      request.onerror = () => reject(request.error);
      request.onsuccess = () => {
        try {
          const next = change(request.result as InboxEntry | undefined);
          if (next) store.put(next, id);
          else store.delete(id);
          written.push([id, next]);
        } catch (error) {
          // A write refused at once (a full quota throws from put): nothing of this transaction may commit.
          store.transaction.abort();
          return reject(error);
        }
        if (--left === 0) resolve(committed.then(() => written));
      };
    }
  });
}
