import { readStoredPrincipal } from '../domain/address/address-shape.ts';
import type { JournalRecord, RemovalJournal } from '../domain/watch/removal-journal.ts';
import { readWatchEntry } from '../domain/watch/watch-entry.ts';
import { LOCAL_KEYS } from './keys.ts';
import { isRecord } from '../domain/is-record.ts';
import { jsonOrNull } from '../domain/json-or-null.ts';

/** Where the removal journal lives: read and written synchronously, in the same task as the change it keeps. */
export interface RemovalJournalStorage {
  read(): RemovalJournal;
  write(journal: RemovalJournal): void;
}

const JOURNAL_VERSION = 1;

/**
 * The journal in localStorage: synchronous, so a Remove is kept before the page can go away, and small (a record per
 * removal still offered for Undo or not yet saved). A device that refuses storage (private mode, a full quota) keeps
 * none, and a reload right after a Remove then finds the list as it was last saved.
 */
export class LocalStorageRemovalJournal implements RemovalJournalStorage {
  constructor(private readonly key: string = LOCAL_KEYS.removalJournal) {}

  read(): RemovalJournal {
    try {
      return parseJournal(localStorage.getItem(this.key));
    } catch {
      return [];
    }
  }

  write(journal: RemovalJournal): void {
    try {
      if (journal.length === 0) localStorage.removeItem(this.key);
      else localStorage.setItem(this.key, JSON.stringify({ version: JOURNAL_VERSION, records: journal }));
    } catch {
      // Storage refused: the list is still saved behind as before, only without this safety net.
    }
  }
}

/** The same in memory, for tests and for a page that must not touch localStorage. */
export class MemoryRemovalJournal implements RemovalJournalStorage {
  constructor(private journal: RemovalJournal = []) {}
  read = (): RemovalJournal => this.journal;
  write = (journal: RemovalJournal): void => void (this.journal = journal);
}

/** The records of a stored journal that read whole; anything else (edited by hand, another version) is nothing. */
export function parseJournal(text: string | null): RemovalJournal {
  if (text === null) return [];
  const value = jsonOrNull(text);
  const fields = isRecord(value) ? value : {};
  if (fields['version'] !== JOURNAL_VERSION || !Array.isArray(fields['records'])) return [];
  return fields['records'].flatMap((raw: unknown) => {
    const record = readRecord(raw);
    return record ? [record] : [];
  });
}

function readRecord(raw: unknown): JournalRecord | null {
  if (!isRecord(raw)) return null;
  const { kind, entry: rawEntry, index, stored, offerUntil } = raw;
  const entry = readWatchEntry(rawEntry, 0, readStoredPrincipal);
  if (!entry.ok || typeof index !== 'number' || !Number.isSafeInteger(index) || index < 0) return null;
  if (typeof stored !== 'boolean') return null;
  if (kind === 'restored') return { kind, entry: entry.value, index, stored };
  if (kind !== 'removed' || !(offerUntil === null || (typeof offerUntil === 'number' && Number.isFinite(offerUntil))))
    return null;
  return { kind, entry: entry.value, index, offerUntil, stored };
}
