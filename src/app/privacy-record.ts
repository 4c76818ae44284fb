import { createStore, type Readable } from '../domain/create-store.ts';
import { originOf, revealedPrincipals, type Outbound } from '../domain/privacy/disclosure.ts';
import {
  byLastContact,
  mergeHostRecords,
  mergeRecords,
  sightingRecord,
  type HostRecord,
} from '../domain/privacy/disclosure-record.ts';
import type { DisclosureStore } from '../store/disclosure-store.ts';
import type { WatchlistController } from '../store/watchlist-state.ts';

export interface PrivacyRecordDeps {
  readonly store: DisclosureStore;
  readonly watchlist: Pick<WatchlistController, 'getState' | 'subscribe'>;
  /**
   * The page's own origin: the app's own files and settings from it are not recorded (it serves the app); anything
   * else sent there (a relay or a node on the same site, as one server can host them) is, like any other host's.
   */
  readonly ownOrigin: string;
  /** Tells the other tabs that the record changed or was cleared. */
  readonly channel?: BroadcastChannel | null;
  /** How long requests gather in memory before one write (they are on screen at once all the same). */
  readonly flushMs?: number;
  readonly now?: () => number;
}

type Message = 'changed' | 'cleared';

/**
 * The privacy record of this device: each request the page sends (told by chain/outbound) is noted against its
 * host with the watched addresses it names, gathered in memory and written every `flushMs` (and when the page
 * hides), merged into what other tabs wrote. The screen reads `hosts()`, which includes what is not written yet.
 */
export class PrivacyRecord {
  private stored = new Map<string, HostRecord>();
  private writing: HostRecord[] = [];
  private pending = new Map<string, HostRecord>();
  /** Every principal watched since the page opened or already in the record: an address removed is still named. */
  private readonly known = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private view: HostRecord[] | null = null;
  private queue: Promise<void> = Promise.resolve();
  private readonly counter = createStore(0);
  /** Counts changes to what `hosts()` reads. */
  readonly changes: Readable<number> = this.counter;

  constructor(private readonly deps: PrivacyRecordDeps) {}

  /** Follows the watch list and the other tabs, reads the record, and writes what is pending when the page hides. */
  start(): () => void {
    const learn = () => {
      const state = this.deps.watchlist.getState();
      if (state.status === 'ready') for (const entry of state.entries) this.known.add(entry.principal);
    };
    learn();
    const stopWatching = this.deps.watchlist.subscribe(learn);
    const heard = (event: MessageEvent<Message>) => {
      if (event.data === 'cleared') this.pending.clear();
      void this.reload();
    };
    this.deps.channel?.addEventListener('message', heard);
    const hide = () => {
      if (document.visibilityState === 'hidden') void this.flush();
    };
    document.addEventListener('visibilitychange', hide);
    window.addEventListener('pagehide', hide);
    void this.reload();
    return () => {
      stopWatching();
      this.deps.channel?.removeEventListener('message', heard);
      document.removeEventListener('visibilitychange', hide);
      window.removeEventListener('pagehide', hide);
      void this.flush();
    };
  }

  /**
   * Notes one thing sent (`at`: when, if earlier than now). Never throws: the request it records goes out whatever
   * happens here.
   */
  readonly note = (outbound: Outbound, at: number = (this.deps.now ?? Date.now)()): void => {
    const origin = originOf(outbound.url, this.deps.ownOrigin);
    if (!origin || (origin === this.deps.ownOrigin && outbound.purpose === 'app')) return;
    const principals = revealedPrincipals(outbound, this.known);
    const outcome =
      outbound.answered !== false ? 'answered' : outbound.via === 'http' && outbound.gaveUp ? 'gave-up' : 'unanswered';
    const sighting = sightingRecord(origin, outbound.purpose, principals, at, outcome);
    this.pending.set(origin, mergeHostRecords(this.pending.get(origin), sighting));
    this.view = null;
    this.timer ??= setTimeout(() => void this.flush(), this.deps.flushMs ?? 2000);
  };

  /** Every host contacted or tried, the last tried first, with what is not written yet. */
  hosts(): HostRecord[] {
    this.view ??= byLastContact(mergeRecords(mergeRecords(this.stored, this.writing), this.pending.values()).values());
    return this.view;
  }

  /** Writes what gathered; on failure it stays pending and is tried again with the next requests. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    return this.serially(async () => {
      if (this.pending.size === 0) return;
      this.writing = [...this.pending.values()];
      this.pending = new Map();
      try {
        await this.deps.store.add(this.writing);
        this.deps.channel?.postMessage('changed' satisfies Message);
      } catch (error) {
        console.warn('Could not keep the privacy record', error);
        const failed = new Map(this.writing.map((record) => [record.origin, record]));
        this.pending = mergeRecords(failed, this.pending.values());
        this.writing = [];
        return this.changed();
      }
      await this.read();
    });
  }

  /** Forgets everything recorded, here and in the other tabs; what is sent from now on is recorded afresh. */
  clear(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending = new Map();
    this.stored = new Map();
    this.changed();
    return this.serially(async () => {
      await this.deps.store.clear();
      this.stored = new Map();
      this.changed();
      this.deps.channel?.postMessage('cleared' satisfies Message);
    });
  }

  private reload(): Promise<void> {
    return this.serially(() => this.read());
  }

  /** Reads what is stored; what was being written is in it now, and leaves the view at the same moment. */
  private async read(): Promise<void> {
    try {
      const records = await this.deps.store.load();
      this.stored = new Map(records.map((record) => [record.origin, record]));
      for (const record of records) for (const principal of Object.keys(record.addresses)) this.known.add(principal);
    } catch (error) {
      console.warn('Could not read the privacy record', error);
    }
    this.writing = [];
    this.changed();
  }

  /** Store operations one after the other: a read never sees a write half-way, nor counts a batch twice. */
  private serially(operation: () => Promise<void>): Promise<void> {
    const next = this.queue.then(operation);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private changed(): void {
    this.view = null;
    this.counter.update((count) => count + 1);
  }
}
