import { newsKey, type NotificationContent } from '../text/notification-content.ts';
import { pairTag, type PairWords } from './transfer-pair.ts';

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
  const byTag = new Map(burst?.byTag);
  // Its other sides in the burst: under its tag, or told alone before the transaction was known to be shared.
  const news = new Set(content.data.ids.map(newsKey));
  const sides = content.data.summary
    ? []
    : [...byTag.values()].filter(
        ({ data }) => !data.summary && data.ids.some((id) => news.has(newsKey(id)) && !content.data.ids.includes(id)),
      );
  // Told as one only in a pair's words (a side worded alone stays its own toast).
  const pair = content.data.pair ?? sides.find(({ data }) => data.pair)?.data.pair;
  const others = pair ? sides : [];
  // Deleted before it is set again, so that what this alert changed moves to the end: the newest.
  for (const { tag } of [content, ...others]) byTag.delete(tag);
  const told = pair && others.length > 0 ? withSides(content, others, pair) : content;
  return { byTag: byTag.set(told.tag, told) };
}

/** A side of a transaction with its other sides told before: one toast, in the pair's words. */
function withSides(
  content: NotificationContent,
  others: readonly NotificationContent[],
  pair: PairWords,
): NotificationContent {
  const ids = [...new Set([...others.flatMap(({ data }) => data.ids), ...content.data.ids])];
  return {
    ...content,
    title: pair.title,
    body: pair.body,
    tag: pairTag(pair.key),
    data: { ...content.data, ids, pair },
  };
}

/** The alert the toast tells in words: the one that arrived or changed last. */
export function newestOf(burst: ToastBurst): NotificationContent {
  const contents = [...burst.byTag.values()];
  const newest = contents[contents.length - 1];
  if (!newest) throw new Error('A toast burst holds at least one alert');
  return newest;
}
