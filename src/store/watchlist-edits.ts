import { describeLabelError, normaliseLabel } from '../domain/address/label.ts';
import { err, ok } from '../domain/result.ts';
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
  type WatchList,
} from '../domain/watch/watchlist.ts';
import {
  journalOffer,
  journalReadded,
  journalRemoval,
  journalRestore,
  type RemovalJournal,
} from '../domain/watch/removal-journal.ts';
import type { WatchlistController } from './watchlist-state.ts';

/** The edits of the list, as the controller applies them. */
export type WatchlistEdits = Pick<
  WatchlistController,
  'add' | 'rename' | 'remove' | 'undo' | 'keepUndo' | 'move' | 'merge' | 'watchAll'
>;

/**
 * What the user does to the list: each edit applies at once (`commit`, written behind by the controller,
 * store/watchlist-controller.ts) and is noted in the removal journal, so that it outlives a page that goes away.
 */
export function watchlistEdits({
  entries,
  commit,
  journaled,
  now,
}: {
  /** The list on screen, null until it is ready. */
  readonly entries: () => WatchList | null;
  readonly commit: (next: WatchList) => void;
  readonly journaled: (change: (current: RemovalJournal) => RemovalJournal) => void;
  readonly now: () => number;
}): WatchlistEdits {
  return {
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
  };
}
