import { createStore } from '../domain/create-store.ts';
import { describeStorageError } from '../domain/text/storage-error.ts';
import type { WatchEntry } from '../domain/watch/watch-entry.ts';
import type { Principal } from '../domain/address/address.ts';
import { describeLabelError, normaliseLabel } from '../domain/address/label.ts';
import { err, ok, type Result } from '../domain/result.ts';
import type { WatchlistDamage } from '../domain/text/storage-messages.ts';
import {
  addEntry,
  describeDuplicate,
  indexOfPrincipal,
  mergeEntries,
  moveEntry,
  newEntry,
  removeEntry,
  renameEntry,
  restoreEntry,
  type Removal,
  type WatchList,
} from '../domain/watch/watchlist.ts';
import {
  journalOffer,
  journalReadded,
  journalRemoval,
  journalRestore,
  journalStored,
  reconcileJournal,
  type KeptUndo,
  type RemovalJournal,
} from '../domain/watch/removal-journal.ts';
import type { WatchlistPersistence } from './idb-watchlist-store.ts';
import type { RemovalJournalStorage } from './removal-journal-store.ts';

export type WatchlistState =
  | { readonly status: 'loading' }
  | {
      readonly status: 'ready';
      readonly entries: WatchList;
      readonly notice: string | null;
      readonly saveError: string | null;
      /** The stored record did not read whole: it is not saved over until the user chooses (`replaceDamaged`). */
      readonly damaged: DamagedList | null;
    }
  /** `raw`: the stored record, for the user to download. */
  | { readonly status: 'read-only'; readonly version: number; readonly raw: unknown; readonly place: string }
  | { readonly status: 'failed'; readonly reason: string };

export interface DamagedList {
  readonly damage: WatchlistDamage;
  /** The record as stored, and where. */
  readonly raw: unknown;
  readonly place: string;
}

/** What other tabs hear about; a tab that hears it reloads the list from storage. */
export interface ChangeChannel {
  postMessage(message: 'changed'): void;
  addEventListener(type: 'message', listener: () => void): void;
  removeEventListener(type: 'message', listener: () => void): void;
}

export interface WatchlistController {
  getState(): WatchlistState;
  subscribe(listener: () => void): () => void;
  load(): Promise<void>;
  /** `name`: the BNS name the address was found by, if any. */
  add(principal: Principal, label: string, name?: string): Result<void, string>;
  rename(principal: string, label: string): Result<void, string>;
  remove(principal: string): Removal | null;
  undo(removal: Removal): void;
  /** The Undo of `removal` runs until `until` (epoch ms), or is over (null): kept so that it outlives a reload. */
  keepUndo(removal: Removal, until: number | null): void;
  /** Once, after the first load: the removal whose Undo was still running when the page before this one went away. */
  takeKeptUndo(): KeptUndo | null;
  /** Moves an entry by `offset` places (negative is up). */
  move(principal: string, offset: number): void;
  /** Merges entries read from a file (store/watchlist-import.ts): those already watched or repeated are skipped. */
  merge(imported: readonly WatchEntry[]): Result<{ added: number; skipped: number }, string>;
  /** Adds several principals at once (the devnet's demo accounts); those already watched are skipped. */
  watchAll(items: readonly { principal: Principal; label: string }[]): { added: number; skipped: number };
  dismissNotice(): void;
  /** The user's choice on a damaged record: the list on screen is saved, the damaged record kept beside it. */
  replaceDamaged(): Promise<void>;
  /** Writes the list on screen again (the stored one was deleted under the app). */
  resave(): void;
  /** Resolves once every change made so far is in storage. */
  saved(): Promise<void>;
  close(): void;
}

/**
 * The watch list as the app sees it: changes apply at once in memory and are written behind, latest first, one
 * write at a time. Framework-free; React attaches with useStore (app/use-store.ts).
 */
export function createWatchlistController(
  persistence: WatchlistPersistence,
  options: { channel?: ChangeChannel; now?: () => number; journal?: RemovalJournalStorage } = {},
): WatchlistController {
  const { channel, now = Date.now, journal } = options;
  const store = createStore<WatchlistState>({ status: 'loading' });
  // Read through a local so that checks of `state.status` narrow it; `store` is what listeners follow.
  let state = store.get();
  /** After `close()`, changes are no longer told to anyone. */
  let closed = false;
  let pending: WatchList | null = null;
  let writing: Promise<void> | null = null;
  /** Changes made while the stored record is damaged: in memory only, until the user chooses. */
  let held = false;
  let loadedOnce = false;
  let keptUndo: KeptUndo | null = null;

  /** Read, changed and written back in one go: the journal is shared by the tabs, and the page may go any moment. */
  const journaled = (change: (current: RemovalJournal) => RemovalJournal): void => {
    if (!journal) return;
    const current = journal.read();
    const next = change(current);
    if (next !== current) journal.write(next);
  };

  const setState = (next: WatchlistState): void => {
    state = next;
    if (!closed) store.set(next);
  };

  const entries = (): WatchList | null => (state.status === 'ready' ? state.entries : null);

  const commit = (next: WatchList): void => {
    if (state.status !== 'ready' || next === state.entries) return;
    setState({ ...state, entries: next });
    if (state.damaged) {
      held = true;
      return;
    }
    pending = next;
    writing ??= drain();
  };

  async function drain(): Promise<void> {
    while (pending) {
      const next = pending;
      pending = null;
      try {
        await persistence.save(next);
        journaled((current) => journalStored(current, next));
        if (state.status === 'ready' && state.saveError) setState({ ...state, saveError: null });
        channel?.postMessage('changed');
      } catch (error) {
        const reason = describeStorageError(error);
        if (state.status === 'ready') {
          setState({
            ...state,
            saveError: `Changes could not be saved on this device: ${reason}. They are kept until the app closes; download the list to keep a copy.`,
          });
        }
      }
    }
    writing = null;
  }

  async function load(): Promise<void> {
    try {
      const outcome = await persistence.load();
      if (outcome.kind === 'newer')
        return setState({ status: 'read-only', version: outcome.version, raw: outcome.raw, place: outcome.place });
      if (pending || held) return;
      const notice = state.status === 'ready' ? state.notice : null;
      const damaged =
        outcome.kind === 'damaged' ? { damage: outcome.damage, raw: outcome.raw, place: outcome.place } : null;
      // What the journal kept of changes whose save never committed (the page went away first) is made good.
      let entries = outcome.entries;
      journaled((current) => {
        const reconciled = reconcileJournal(current, entries, now());
        entries = reconciled.list;
        if (!loadedOnce) keptUndo = reconciled.undo;
        return reconciled.journal;
      });
      loadedOnce = true;
      setState({ status: 'ready', entries, notice, saveError: null, damaged });
      if (entries === outcome.entries) return;
      if (damaged) held = true;
      else {
        pending = entries;
        writing ??= drain();
      }
    } catch (error) {
      setState({ status: 'failed', reason: describeStorageError(error) });
    }
  }

  async function replaceDamaged(): Promise<void> {
    if (state.status !== 'ready' || !state.damaged) return;
    const list = state.entries;
    try {
      await persistence.replaceDamaged(state.damaged.raw, list);
    } catch (error) {
      if (state.status === 'ready')
        setState({ ...state, saveError: `The list could not be saved: ${describeStorageError(error)}.` });
      return;
    }
    held = false;
    journaled((current) => journalStored(current, list));
    if (state.status !== 'ready') return;
    const notice = 'The damaged watch list was set aside on this device, and the list below was saved in its place.';
    setState({ ...state, damaged: null, notice, saveError: null });
    channel?.postMessage('changed');
    if (state.entries !== list) {
      pending = state.entries;
      writing ??= drain();
    }
  }

  const onRemoteChange = (): void => {
    if (!writing && !held) void load();
  };
  channel?.addEventListener('message', onRemoteChange);

  return {
    getState: () => state,
    subscribe: store.subscribe,
    load,
    add(principal, rawLabel, name) {
      const list = entries();
      if (!list) return err('The watch list is not ready yet.');
      const label = normaliseLabel(rawLabel);
      if (!label.ok) return err(describeLabelError(label.error));
      const added = addEntry(list, principal, label.value, now(), name);
      if (!added.ok) return err(describeDuplicate(added.error));
      commit(added.value);
      journaled((current) => journalReadded(current, added.value));
      return ok(undefined);
    },
    rename(principal, rawLabel) {
      const list = entries();
      if (!list) return err('The watch list is not ready yet.');
      const label = normaliseLabel(rawLabel);
      if (!label.ok) return err(describeLabelError(label.error));
      commit(renameEntry(list, principal, label.value));
      return ok(undefined);
    },
    remove(principal) {
      const list = entries();
      const removed = list && removeEntry(list, principal);
      if (!removed) return null;
      commit(removed.list);
      journaled((current) => journalRemoval(current, removed.removal, now()));
      return removed.removal;
    },
    undo(removal) {
      const list = entries();
      if (!list) return;
      commit(restoreEntry(list, removal));
      journaled((current) => journalRestore(current, removal));
    },
    keepUndo(removal, until) {
      journaled((current) => journalOffer(current, removal.entry.principal, until));
    },
    takeKeptUndo() {
      const kept = keptUndo;
      keptUndo = null;
      return kept;
    },
    move(principal, offset) {
      const list = entries();
      if (list) commit(moveEntry(list, principal, indexOfPrincipal(list, principal) + offset));
    },
    merge(imported) {
      const list = entries();
      if (!list) return err('The watch list is not ready yet.');
      const merged = mergeEntries(list, imported);
      commit(merged.list);
      journaled((current) => journalReadded(current, merged.list));
      return ok({ added: merged.added, skipped: merged.skipped });
    },
    watchAll(items) {
      const list = entries();
      if (!list) return { added: 0, skipped: items.length };
      const time = now();
      const incoming = items.map(({ principal, label }) => {
        const normalised = normaliseLabel(label);
        return newEntry(principal, normalised.ok ? normalised.value : '', time);
      });
      const merged = mergeEntries(list, incoming);
      commit(merged.list);
      journaled((current) => journalReadded(current, merged.list));
      return { added: merged.added, skipped: merged.skipped };
    },
    dismissNotice() {
      if (state.status === 'ready' && state.notice) setState({ ...state, notice: null });
    },
    replaceDamaged,
    resave() {
      if (state.status !== 'ready' || state.damaged) return;
      pending = state.entries;
      writing ??= drain();
    },
    saved: async () => {
      while (writing) await writing;
    },
    close() {
      channel?.removeEventListener('message', onRemoteChange);
      closed = true;
    },
  };
}
