import type { ReadPrincipal } from '../address/address-shape.ts';
import { rulesKey, type RulesByKey, type TransferItem } from './list-transfer.ts';
import { err, ok, type Result } from '../result.ts';
import { readRulesRecord, rulesToRecord } from '../alerts/rules-record.ts';
import { readWatchEntry } from './watch-entry.ts';
import type { WatchList } from './watchlist.ts';
import { isRecord } from '../is-record.ts';

/**
 * The exported file: self-describing, versioned, and readable by a person. Version 2 adds each address's alert
 * rules (`rules`, where set on the device); version 1 files still import.
 */
export const EXPORT_FORMAT = 'stacks-watch/watchlist';
export const EXPORT_VERSION = 2;
export const IMPORT_MAX_BYTES = 5_000_000;
export const IMPORT_MAX_ENTRIES = 10_000;

export function serialiseWatchlist(list: WatchList, rules: RulesByKey, now: number): string {
  const file = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exportedAt: new Date(now).toISOString(),
    entries: list.map(({ principal, network, label, name, addedAt }) => {
      const own = rules[rulesKey({ network, principal })];
      return {
        principal,
        network,
        label,
        ...(name ? { name } : {}),
        addedAt,
        ...(own ? { rules: rulesToRecord(own) } : {}),
      };
    }),
  };
  return `${JSON.stringify(file, null, 2)}\n`;
}

export type ImportError =
  | { readonly kind: 'too-large'; readonly bytes: number }
  | { readonly kind: 'not-json'; readonly detail: string }
  | { readonly kind: 'not-an-export' }
  | { readonly kind: 'newer-version'; readonly version: number }
  | { readonly kind: 'bad-field'; readonly field: string; readonly found: string; readonly expected: string }
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
export function parseWatchlistFile(
  text: string,
  now: number,
  read: ReadPrincipal,
): Result<TransferItem[], ImportError> {
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

  const items: TransferItem[] = [];
  const problems: { entry: number; message: string }[] = [];
  rawEntries.value.forEach((raw, index) => {
    const item = readItem(raw, now, read);
    if (item.ok) items.push(item.value);
    else problems.push({ entry: index + 1, message: item.error });
  });
  return problems.length > 0 ? err({ kind: 'bad-entries', problems }) : ok(items);
}

function readItem(raw: unknown, now: number, read: ReadPrincipal): Result<TransferItem, string> {
  const entry = readWatchEntry(raw, now, read);
  if (!entry.ok) return entry;
  const written = isRecord(raw) ? (raw['principal'] ?? raw['address']) : raw;
  const respelled =
    typeof written === 'string' && written.trim() !== entry.value.principal ? { respelled: true as const } : {};
  const rawRules = isRecord(raw) ? raw['rules'] : undefined;
  if (rawRules === undefined) return ok({ entry: entry.value, rules: null, ...respelled });
  const rules = readRulesRecord(rawRules);
  return rules.ok
    ? ok({ entry: entry.value, rules: rules.value, ...respelled })
    : err(`for ${entry.value.principal}, ${rules.error}`);
}

function entriesOf(data: unknown): Result<readonly unknown[], ImportError> {
  if (Array.isArray(data)) return ok(data);
  if (!isRecord(data)) return err({ kind: 'not-an-export' });
  if (data['format'] !== EXPORT_FORMAT || !Array.isArray(data['entries'])) return err({ kind: 'not-an-export' });
  const version = data['version'];
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 1)
    return err(badField('version', version, `a whole number from 1 to ${EXPORT_VERSION}`));
  if (version > EXPORT_VERSION) return err({ kind: 'newer-version', version });
  const exportedAt = data['exportedAt'];
  if (exportedAt !== undefined && (typeof exportedAt !== 'string' || Number.isNaN(Date.parse(exportedAt))))
    return err(badField('exportedAt', exportedAt, 'a date and time such as 2026-11-24T13:00:00.000Z'));
  return ok(data['entries']);
}

function badField(field: string, found: unknown, expected: string): ImportError {
  return { kind: 'bad-field', field, found: found === undefined ? 'missing' : JSON.stringify(found), expected };
}

export function describeImportError(error: ImportError): string {
  switch (error.kind) {
    case 'too-large':
      return `The file is ${Math.round(error.bytes / 1000)} kB; a watch list export is at most ${IMPORT_MAX_BYTES / 1_000_000} MB.`;
    case 'not-json':
      // The parser's own message ("Unexpected token 'h', …") is left out: it says nothing a user can act on.
      return 'The file is not valid JSON, so it cannot be a watch list. Choose a file made with “Export”, or a JSON list of addresses.';
    case 'not-an-export':
      return 'This file is not a Stacks Watch export. Choose a file made with “Export”, or a JSON list of addresses.';
    case 'newer-version':
      return 'This file was exported by a newer version of Stacks Watch. Update the app, then import it again.';
    case 'bad-field':
      return `Nothing was imported: the file’s “${error.field}” is ${error.found}; expected ${error.expected}.`;
    case 'no-entries':
      return 'The file holds no addresses.';
    case 'too-many':
      return `The file holds ${error.count} addresses; at most ${IMPORT_MAX_ENTRIES} can be imported at once.`;
    case 'bad-entries': {
      const [first] = error.problems;
      const others = error.problems.length - 1;
      const more = others > 0 ? ` (and ${others} more ${others === 1 ? 'entry' : 'entries'} with problems)` : '';
      return `Nothing was imported. In entry ${first?.entry}, ${first?.message.replace(/\.$/, '')}${more}.`;
    }
  }
}
