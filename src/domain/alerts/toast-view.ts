import { newsKey, summaryMoreLine, summaryUnlisted, type NotificationContent } from '../text/notification-content.ts';
import type { InboxEntry } from './inbox.ts';
import { pairTag, type PairWords } from './transfer-pair.ts';

/**
 * The in-app toast as a burst of alerts: the newest is shown in its own words, the others as "+N more" (viewBurst).
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
  // Every side told, as PairWords.sides says: the others' with this one's, which is the newest.
  const sides = Object.assign({}, ...others.map(({ data }) => data.pair?.sides ?? {}), pair.sides);
  return {
    ...content,
    title: pair.title,
    body: pair.body,
    tag: pairTag(pair.key),
    data: { ...content.data, ids, pair: { ...pair, sides } },
  };
}

/** The alert the toast tells in words: the one that arrived or changed last. */
export function newestOf(burst: ToastBurst): NotificationContent {
  const contents = [...burst.byTag.values()];
  const newest = contents[contents.length - 1];
  if (!newest) throw new Error('A toast burst holds at least one alert');
  return newest;
}

export interface ToastView {
  /** The newest alert in its own words, as its notification tells it. */
  readonly title: string;
  /** Its words; a summary's without its "and N more", which the toast's one count takes in. */
  readonly body: string;
  /** The newest alert's own page. */
  readonly path: string;
  /**
   * Every alert the toast does not tell in words, counted once: the burst's others (a transaction between watched
   * addresses once) and those a summary leaves to its "and N more". "+N more", none when 0.
   */
  readonly more: number;
  /** Where "+N more" goes: the one address of the whole burst, or the inbox marked where the burst began. */
  readonly morePath: string;
}

/** The inbox with the line drawn above the alerts stored at or after `since` (epoch ms): a burst's, as its toast told. */
export const inboxSincePath = (since: number): string => `/inbox?since=${since}`;

/**
 * When the burst began, as the inbox has it: the oldest time its alerts' latest states were stored at (each row of
 * the inbox is at that time). Null while the inbox holds none of them.
 */
export function burstSince(burst: ToastBurst, entries: readonly Pick<InboxEntry, 'id' | 'at'>[]): number | null {
  const ids = new Set([...burst.byTag.values()].flatMap((content) => content.data.ids));
  const times = entries.filter((entry) => ids.has(entry.id)).map((entry) => entry.at);
  return times.length > 0 ? Math.min(...times) : null;
}

/** The time in an inbox path's `?since=` (inboxSincePath), or null where it names none a clock could hold. */
export function sinceOfSearch(search: string): number | null {
  const value = new URLSearchParams(search).get('since');
  if (value === null || !/^\d{1,15}$/.test(value)) return null;
  return Number(value);
}

/**
 * What the toast says: the newest alert in its words, and how many more came with it. Folding them all into "N new
 * alerts" hid the words of every alert of a busy minute (a confirmed transfer was never shown); the newest is the one
 * the user most likely wants, and the others are one tap away: on their address's page when they are all one
 * address's, else in the inbox from where the burst began (`since`, the oldest of its alerts as the inbox stored it,
 * when known), not the whole inbox's unread. One count only: a summary's "and N more" is folded into "+N more".
 */
export function viewBurst(burst: ToastBurst, since: number | null = null): ToastView {
  const contents = [...burst.byTag.values()];
  const newest = newestOf(burst);
  const pages = new Set(contents.map((content) => content.data.path.split('#')[0]));
  const [onePage] = pages;
  const unlisted = summaryUnlisted(newest.data);
  const moreLine = `\n${summaryMoreLine(unlisted)}`;
  const body = unlisted > 0 && newest.body.endsWith(moreLine) ? newest.body.slice(0, -moreLine.length) : newest.body;
  const folded = body === newest.body ? 0 : unlisted;
  return {
    title: newest.title,
    body,
    path: newest.data.path,
    more: Math.max(0, alertsTold(contents) - alertsTold([newest])) + folded,
    morePath: pages.size === 1 && onePage ? onePage : since === null ? '/inbox' : inboxSincePath(since),
  };
}

/**
 * What a screen reader hears of the toast: the same words, each line a sentence (one that ends its own is not given a
 * second full stop), the count spelled out.
 */
export function spokenView(view: ToastView): string {
  const lines = [view.title, view.body, view.more > 0 ? `And ${view.more} more` : '']
    .flatMap((part) => part.split('\n'))
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.reduce((said, line) => (said === '' ? line : `${said}${/[.!?…]$/.test(said) ? ' ' : '. '}${line}`), '');
}

/** How many alerts contents tell: each alert once, and both sides of a transfer between two watched addresses as one. */
function alertsTold(contents: readonly NotificationContent[]): number {
  const seen = new Set<string>();
  let count = 0;
  for (const content of [...contents].sort((a, b) => Number(Boolean(a.data.pair)) - Number(Boolean(b.data.pair)))) {
    const fresh = content.data.ids.filter((id) => !seen.has(id));
    fresh.forEach((id) => seen.add(id));
    count += content.data.pair ? Math.min(fresh.length, 1) : fresh.length;
  }
  return count;
}
