import { createStore } from '../domain/create-store.ts';
import { describeStorageError } from '../domain/text/storage-error.ts';
import type { WatchList } from '../domain/watch/watchlist.ts';
import {
  journalStored,
  reconcileJournal,
  type KeptUndo,
  type RemovalJournal,
} from '../domain/watch/removal-journal.ts';
import type { WatchlistPersistence } from './idb-watchlist-store.ts';
import type { RemovalJournalStorage } from './removal-journal-store.ts';
import { watchlistEdits } from './watchlist-edits.ts';
import type { ChangeChannel, WatchlistController, WatchlistState } from './watchlist-state.ts';

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
    ...watchlistEdits({ entries, commit, journaled, now }),
    takeKeptUndo() {
      const kept = keptUndo;
      keptUndo = null;
      return kept;
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
