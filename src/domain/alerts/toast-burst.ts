import type { NotificationContent } from '../text/notification-content.ts';
import { joinShared, paired, sidesOnScreen } from './tray.ts';

/**
 * The in-app toast as a burst of alerts: the first one is shown in its own words; while it is on screen, later
 * ones fold into it ("3 new alerts") instead of stacking. A later state of the same alert (its tag) replaces it; the
 * other sides of a transaction between watched addresses join it, told as one.
 */
export interface ToastBurst {
  /** Each alert's latest content, by tag, in arrival order. */
  readonly byTag: ReadonlyMap<string, NotificationContent>;
}

export function addToBurst(burst: ToastBurst | null, content: NotificationContent): ToastBurst {
  if (!burst) return { byTag: new Map([[content.tag, content]]) };
  const byTag = new Map(burst.byTag);
  if (!content.data.pair) {
    const shown = joinShared([...byTag.values()], content) ?? content;
    byTag.delete(shown.tag);
    return { byTag: byTag.set(shown.tag, shown) };
  }
  // Its other sides in the burst, under its tag or told alone before the transaction was known to be shared.
  const { sides, strays } = sidesOnScreen([...byTag.values()], content.tag, content.data.pair.key);
  for (const tag of [content.tag, ...strays.map((stray) => stray.tag)]) byTag.delete(tag);
  return { byTag: byTag.set(content.tag, paired(sides, content)) };
}
