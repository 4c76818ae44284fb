import type { ReadPrincipal } from '../domain/address/address-shape.ts';
import { planMerge } from '../domain/watch/list-transfer.ts';
import { err, type Result } from '../domain/result.ts';
import { describeImportError, parseWatchlistFile } from '../domain/watch/watchlist-file.ts';
import { applyMerge, type MergeTargets } from './list-merge.ts';

/**
 * Reads an exported watch list and merges it, labels and alert rules too, without losing anything on the device; a
 * file that does not read changes nothing and says what is wrong. `read`: the full address parser (a file is typed
 * input).
 */
export async function importWatchlistFile(
  targets: MergeTargets,
  text: string,
  read: ReadPrincipal,
  now: number = Date.now(),
): Promise<Result<string, string>> {
  const parsed = parseWatchlistFile(text, now, read);
  if (!parsed.ok) return err(describeImportError(parsed.error));
  const state = targets.watchlist.getState();
  const list = state.status === 'ready' ? state.entries : [];
  return applyMerge(planMerge(list, targets.alertRules.get().rules, parsed.value), targets, 'Imported');
}
