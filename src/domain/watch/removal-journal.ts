import type { WatchEntry } from './watch-entry.ts';
import { indexOfPrincipal, restoreEntry, type Removal, type WatchList } from './watchlist.ts';

/** How long a removal can be undone, in the user's attention (the countdown stops while the offer is held). */
export const UNDO_WINDOW_MS = 10_000;

/**
 * What the user last meant for one principal, kept synchronously beside the watch list, which is saved behind: a
 * reload between a Remove (or an Undo) and the save of its list neither brings the entry back nor loses it, and a
 * removal still offered for Undo is offered again after the reload.
 * - `removed`: the entry must be absent; `offerUntil` is when its Undo ends (null: over, the removal is final).
 * - `restored`: the entry must be present (an Undo, or the address added again), at `index` if it is missing.
 * `stored`: the list last saved agrees with the record. A record goes once it is stored and nothing is offered.
 */
export type JournalRecord =
  | {
      readonly kind: 'removed';
      readonly entry: WatchEntry;
      readonly index: number;
      readonly offerUntil: number | null;
      readonly stored: boolean;
    }
  | { readonly kind: 'restored'; readonly entry: WatchEntry; readonly index: number; readonly stored: boolean };

export type RemovalJournal = readonly JournalRecord[];

/** A removal whose Undo outlived a reload, with the time it has left. */
export interface KeptUndo {
  readonly removal: Removal;
  readonly leftMs: number;
}

export interface Reconciled {
  /** The stored list with every record's intent applied: the same array when the store already agreed. */
  readonly list: WatchList;
  readonly journal: RemovalJournal;
  /** The newest removal whose Undo has time left (a newer removal makes an older one final, as on screen). */
  readonly undo: KeptUndo | null;
}

const principalOf = (record: JournalRecord): string => record.entry.principal;

const agrees = (record: JournalRecord, list: WatchList): boolean =>
  indexOfPrincipal(list, principalOf(record)) >= 0 === (record.kind === 'restored');

/** Drops what no longer needs keeping: stored records with no Undo on offer. */
const settled = (journal: RemovalJournal): RemovalJournal => {
  const kept = journal.filter((record) => !record.stored || (record.kind === 'removed' && record.offerUntil !== null));
  return kept.length === journal.length ? journal : kept;
};

/** The journal with `record` as the one word on its principal. */
const put = (journal: RemovalJournal, record: JournalRecord): RemovalJournal => [
  ...journal.filter((other) => principalOf(other) !== principalOf(record)),
  record,
];

export const journalRemoval = (journal: RemovalJournal, { entry, index }: Removal, now: number): RemovalJournal =>
  put(journal, { kind: 'removed', entry, index, offerUntil: now + UNDO_WINDOW_MS, stored: false });

export const journalRestore = (journal: RemovalJournal, { entry, index }: Removal): RemovalJournal =>
  put(journal, { kind: 'restored', entry, index, stored: false });

/** After an add, a merge or an import: a removed principal that is in `list` again is meant to stay. */
export function journalReadded(journal: RemovalJournal, list: WatchList): RemovalJournal {
  let next = journal;
  for (const record of journal) {
    const index = indexOfPrincipal(list, principalOf(record));
    if (record.kind === 'removed' && index >= 0)
      next = put(next, { kind: 'restored', entry: list[index]!, index, stored: false });
  }
  return next;
}

/** The Undo of `principal`'s removal runs until `until`, or is over (null). */
export function journalOffer(journal: RemovalJournal, principal: string, until: number | null): RemovalJournal {
  const record = journal.find((each) => principalOf(each) === principal);
  if (record?.kind !== 'removed' || record.offerUntil === until) return journal;
  return settled(put(journal, { ...record, offerUntil: until }));
}

/** `list` was saved: the records it agrees with are stored. */
export function journalStored(journal: RemovalJournal, list: WatchList): RemovalJournal {
  if (!journal.some((record) => !record.stored && agrees(record, list))) return journal;
  return settled(
    journal.map((record) => (!record.stored && agrees(record, list) ? { ...record, stored: true } : record)),
  );
}

/**
 * At start, with the list as storage has it: every record's intent applied to the list (a save that never
 * committed is made good; the caller saves the list when it changed), expired offers over, and the newest Undo still
 * running handed back to be offered again.
 */
export function reconcileJournal(journal: RemovalJournal, stored: WatchList, now: number): Reconciled {
  let list = stored;
  const live = journal
    .filter((record) => record.kind === 'removed' && record.offerUntil !== null && record.offerUntil > now)
    .sort((a, b) => offerEnd(b) - offerEnd(a))[0];
  const records = journal.map((record): JournalRecord => {
    const index = indexOfPrincipal(list, principalOf(record));
    const wasStored = agrees(record, list);
    if (record.kind === 'restored') {
      if (index < 0) list = restoreEntry(list, record);
      return { ...record, stored: wasStored };
    }
    if (index >= 0) list = list.filter((_, at) => at !== index);
    return { ...record, offerUntil: record === live ? record.offerUntil : null, stored: wasStored };
  });
  const undo = live ? { removal: { entry: live.entry, index: live.index }, leftMs: offerEnd(live) - now } : null;
  return { list, journal: settled(records), undo };
}

const offerEnd = (record: JournalRecord): number => (record.kind === 'removed' ? (record.offerUntil ?? 0) : 0);
