import type { ReadPrincipal } from '../domain/address/address-shape.ts';
import { err, type Result } from '../domain/result.ts';
import { describeImportError, parseWatchlistFile } from '../domain/watch/watchlist-file.ts';
import type { WatchlistController } from './watchlist-state.ts';

/**
 * Reads an exported watch list and merges it into the list without duplicates; a file that does not read changes
 * nothing and says what is wrong. `read`: the full address parser (a file is typed input).
 */
export function importWatchlistFile(
  controller: Pick<WatchlistController, 'merge'>,
  text: string,
  read: ReadPrincipal,
  now: number = Date.now(),
): Result<{ added: number; skipped: number }, string> {
  const parsed = parseWatchlistFile(text, now, read);
  if (!parsed.ok) return err(describeImportError(parsed.error));
  return controller.merge(parsed.value);
}
