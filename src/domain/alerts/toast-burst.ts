import type { NotificationContent } from '../text/notification-content.ts';
import { paired } from './tray.ts';

/**
 * The in-app toast as a burst of alerts: the first one is shown in its own words; while it is on screen, later
 * ones fold into it ("3 new alerts") instead of stacking. A later state of the same alert (its tag) replaces it; the
 * other side of a transfer between two watched addresses joins it, told as one.
 */
export interface ToastBurst {
  /** Each alert's latest content, by tag, in arrival order. */
  readonly byTag: ReadonlyMap<string, NotificationContent>;
}

export function addToBurst(burst: ToastBurst | null, content: NotificationContent): ToastBurst {
  if (!burst) return { byTag: new Map([[content.tag, content]]) };
  const byTag = new Map(burst.byTag);
  const before = byTag.get(content.tag);
  byTag.delete(content.tag);
  byTag.set(content.tag, content.data.pair ? paired(before, content) : content);
  return { byTag };
}
