import type { NotificationContent } from '../text/notification-content.ts';
import { joinShared, paired, sidesOnScreen } from './tray.ts';

/**
 * The in-app toast as a burst of alerts: the newest is shown in its own words, the others as "+N more" (toast-view.ts).
 * A later state of the same alert (its tag) replaces it and becomes the newest; the other sides of a transaction
 * between watched addresses join it, told as one.
 */
export interface ToastBurst {
  /** Each alert's latest content, by tag, in the order of their latest arrival: the newest is last. */
  readonly byTag: ReadonlyMap<string, NotificationContent>;
}

export function addToBurst(burst: ToastBurst | null, content: NotificationContent): ToastBurst {
  if (!burst) return { byTag: new Map([[content.tag, content]]) };
  const byTag = new Map(burst.byTag);
  // Deleted before it is set again, so that what this alert changed moves to the end: the newest.
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

/** The alert the toast tells in words: the one that arrived or changed last. */
export function newestOf(burst: ToastBurst): NotificationContent {
  const contents = [...burst.byTag.values()];
  const newest = contents[contents.length - 1];
  if (!newest) throw new Error('A toast burst holds at least one alert');
  return newest;
}
