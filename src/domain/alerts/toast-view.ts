import type { NotificationContent } from '../text/notification-content.ts';
import type { ToastBurst } from './toast-burst.ts';

export interface ToastView {
  readonly title: string;
  /** Empty for a merged burst: its count says it. */
  readonly body: string;
  /** Where "view" goes: the alert's own page, the one address of the burst, or the inbox. */
  readonly path: string;
  readonly merged: boolean;
}

/** What the toast says: one alert in its own words, several as a count with a way to them. */
export function viewBurst(burst: ToastBurst): ToastView {
  const contents = [...burst.byTag.values()];
  const only = contents.length === 1 ? contents[0] : undefined;
  if (only) return { title: only.title, body: only.body, path: only.data.path, merged: false };
  const count = Math.max(alertsTold(contents), contents.length);
  const pages = new Set(contents.map((content) => content.data.path.split('#')[0]));
  const [onePage] = pages;
  return {
    title: `${count} new alerts`,
    body: '',
    path: pages.size === 1 && onePage ? onePage : '/inbox',
    merged: true,
  };
}

/** How many alerts the burst tells: each alert once, and both sides of a transfer between two watched addresses as one. */
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
