import type { ReadPrincipal } from '../address/address-shape.ts';
import { err, ok, type Result } from '../result.ts';
import { readWatchEntry, type WatchEntry } from './watch-entry.ts';
import type { WatchList } from './watchlist.ts';

/** The exported file: self-describing, versioned, and readable by a person. */
export const EXPORT_FORMAT = 'stacks-watch/watchlist';
export const EXPORT_VERSION = 1;
export const IMPORT_MAX_BYTES = 5_000_000;
export const IMPORT_MAX_ENTRIES = 10_000;

export function serialiseWatchlist(list: WatchList, now: number): string {
  const file = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date(now).toISOString(),
    entries: list.map(({ principal, network, label, name, addedAt }) => ({
      principal,
      network,
      label,
      ...(name ? { name } : {}),
      addedAt,
    })),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export type ImportError =
  | { readonly kind: 'too-large'; readonly bytes: number }
  | { readonly kind: 'not-json'; readonly detail: string }
  | { readonly kind: 'not-an-export' }
  | { readonly kind: 'newer-version'; readonly version: number }
  | { readonly kind: 'no-entries' }
  | { readonly kind: 'too-many'; readonly count: number }
  | {
      readonly kind: 'bad-entries';
      readonly problems: readonly { readonly entry: number; readonly message: string }[];
    };

/**
 * Reads an exported file, or a plain JSON array of addresses. All or nothing: a single bad entry rejects the file,
 * so that an import never half-happens.
 */
export function parseWatchlistFile(text: string, now: number, read: ReadPrincipal): Result<WatchEntry[], ImportError> {
  if (text.length > IMPORT_MAX_BYTES) return err({ kind: 'too-large', bytes: text.length });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return err({ kind: 'not-json', detail: error instanceof Error ? error.message : String(error) });
  }
  const rawEntries = entriesOf(data);
  if (!rawEntries.ok) return rawEntries;
  if (rawEntries.value.length === 0) return err({ kind: 'no-entries' });
  if (rawEntries.value.length > IMPORT_MAX_ENTRIES) return err({ kind: 'too-many', count: rawEntries.value.length });

  const entries: WatchEntry[] = [];
  const problems: { entry: number; message: string }[] = [];
  rawEntries.value.forEach((raw, index) => {
    const entry = readWatchEntry(raw, now, read);
    if (entry.ok) entries.push(entry.value);
    else problems.push({ entry: index + 1, message: entry.error });
  });
  return problems.length > 0 ? err({ kind: 'bad-entries', problems }) : ok(entries);
}

function entriesOf(data: unknown): Result<readonly unknown[], ImportError> {
  if (Array.isArray(data)) return ok(data);
  if (typeof data !== 'object' || data === null) return err({ kind: 'not-an-export' });
  const file = data as Record<string, unknown>;
  if (file['format'] !== EXPORT_FORMAT || !Array.isArray(file['entries'])) return err({ kind: 'not-an-export' });
  const version = file['version'];
  if (typeof version !== 'number' || version > EXPORT_VERSION) {
    return err({ kind: 'newer-version', version: typeof version === 'number' ? version : Number.NaN });
  }
  return ok(file['entries']);
}

export function describeImportError(error: ImportError): string {
  switch (error.kind) {
    case 'too-large':
      return `The file is ${Math.round(error.bytes / 1000)} kB; a watch list export is at most ${IMPORT_MAX_BYTES / 1_000_000} MB.`;
    case 'not-json':
      return `The file is not valid JSON (${error.detail}). Choose a file exported by Stacks Watch.`;
    case 'not-an-export':
      return 'This file is not a Stacks Watch export. Choose a file made with “Export”, or a JSON list of addresses.';
    case 'newer-version':
      return 'This file was exported by a newer version of Stacks Watch. Update the app, then import it again.';
    case 'no-entries':
      return 'The file holds no addresses.';
    case 'too-many':
      return `The file holds ${error.count} addresses; at most ${IMPORT_MAX_ENTRIES} can be imported at once.`;
    case 'bad-entries': {
      const [first] = error.problems;
      const others = error.problems.length - 1;
      const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'entry' : 'entries'} with problems)` : '';
      return `Nothing was imported. Entry ${first?.entry}: ${first?.message.replace(/\.$/, '')}${more}.`;
    }
  }
}
