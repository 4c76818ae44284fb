import type { NotificationContent } from '../text/notification-content.ts';
import { newestOf, type ToastBurst } from './toast-burst.ts';

export interface ToastView {
  /** The newest alert in its own words, as its notification tells it. */
  readonly title: string;
  readonly body: string;
  /** The newest alert's own page. */
  readonly path: string;
  /** The burst's other alerts, a transaction between watched addresses once: "+N more", none when 0. */
  readonly more: number;
  /** Where "+N more" goes: the one address of the whole burst, or the inbox. */
  readonly morePath: string;
}

/**
 * What the toast says: the newest alert in its words, and how many more came with it. Folding them all into "N new
 * alerts" hid the words of every alert of a busy minute (a confirmed transfer was never shown); the newest is the one
 * the user most likely wants, and the others are one tap away.
 */
export function viewBurst(burst: ToastBurst): ToastView {
  const contents = [...burst.byTag.values()];
  const newest = newestOf(burst);
  const pages = new Set(contents.map((content) => content.data.path.split('#')[0]));
  const [onePage] = pages;
  return {
    title: newest.title,
    body: newest.body,
    path: newest.data.path,
    more: Math.max(0, alertsTold(contents) - alertsTold([newest])),
    morePath: pages.size === 1 && onePage ? onePage : '/inbox',
  };
}

/** What a screen reader hears of the toast: the same words, the count spelled out. */
export function spokenView(view: ToastView): string {
  return [view.title, view.body, view.more > 0 ? `And ${view.more} more` : ''].filter(Boolean).join('. ');
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
