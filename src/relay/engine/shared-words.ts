import type { AlertItem } from '../../domain/alerts/alert-plan.ts';
import type { Activity } from '../../domain/state/snapshot.ts';
import { poisoningIn, type TextContext } from '../../domain/text/alert-text.ts';
import { alertWords, type AlertWords } from '../../domain/text/notification-content.ts';

/**
 * An alert's own words, built once for all the devices that watch its address: every device hears the same
 * transaction (one activity, handed to each by the fan-out) and words it the same way, but for its poisoning check
 * (its own trusted addresses), which is part of the key. The relay knows no labels; names and token metadata are the
 * relay's, and words built before it learned one more are not reused (`learned` counts them). A staking lock or
 * unlock, and a revert recalled from earlier words, are worded each time (they carry no activity to key on).
 */
export class SharedWords {
  private readonly byActivity = new WeakMap<Activity, Map<string, AlertWords>>();

  constructor(private readonly learned: () => number) {}

  of(item: AlertItem, context: TextContext): AlertWords {
    const { activity } = item;
    if (!activity || item.recalled || item.phase === 'locked' || item.phase === 'unlocked')
      return alertWords(item, context);
    const suspect = poisoningIn(item, context);
    const key = [
      item.principal,
      item.phase,
      item.afterRevert ?? '',
      suspect ? `${suspect.sender}>${suspect.imitates}` : '',
      this.learned(),
    ].join('\n');
    let words = this.byActivity.get(activity);
    if (!words) this.byActivity.set(activity, (words = new Map()));
    const kept = words.get(key);
    if (kept) return kept;
    const made = alertWords(item, context);
    words.set(key, made);
    return made;
  }
}
