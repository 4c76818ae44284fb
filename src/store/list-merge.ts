import type { AlertRules } from '../domain/alerts/alert-rules.ts';
import { describeMerge, type MergePlan, type RulesByKey } from '../domain/watch/list-transfer.ts';
import type { Network } from '../domain/network.ts';
import { err, ok, type Result } from '../domain/result.ts';
import { isDefaultRules } from '../domain/alerts/rules-record.ts';
import { describeStorageError } from '../domain/text/storage-error.ts';
import type { WatchlistController } from './watchlist-state.ts';

export interface MergeTargets {
  readonly watchlist: Pick<WatchlistController, 'getState' | 'merge' | 'rename' | 'saved'>;
  readonly alertRules: {
    get(): { readonly rules: RulesByKey };
    setRules(network: Network, principal: string, rules: AlertRules): Promise<void>;
  };
}

/**
 * Carries out a merge plan and says what it did only once it is stored. Rules are written first, one at a time: an
 * address must never be watched, even for a moment, under rules other than those it came with.
 */
export async function applyMerge(
  plan: MergePlan,
  targets: MergeTargets,
  verb: 'Imported' | 'Added' = 'Added',
): Promise<Result<string, string>> {
  const state = targets.watchlist.getState();
  if (state.status !== 'ready') return err('The watch list is not ready yet: wait a moment, then try again.');
  if (state.damaged)
    return err('The stored watch list is damaged: choose what to keep on the watch list screen first, then add these.');
  const rules = [
    ...plan.added.flatMap(({ entry, rules }) => (rules && !isDefaultRules(rules) ? [{ entry, rules }] : [])),
    ...plan.rules,
  ];
  try {
    for (const { entry, rules: set } of rules) await targets.alertRules.setRules(entry.network, entry.principal, set);
  } catch (error) {
    return err(
      `The alert rules could not be saved on this device (${describeStorageError(error)}). Nothing was added; try again.`,
    );
  }
  const merged = targets.watchlist.merge(plan.added.map((item) => item.entry));
  if (!merged.ok) return merged;
  for (const { entry, label } of plan.labels) targets.watchlist.rename(entry.principal, label);
  await targets.watchlist.saved();
  const after = targets.watchlist.getState();
  if (after.status === 'ready' && after.saveError) return err(after.saveError);
  return ok(describeMerge(plan, verb));
}
