import type { NotificationContent } from './alert-text.ts';

/**
 * The in-app toast as a burst of alerts: the first one is shown in its own words; while it is on screen, later
 * ones fold into it ("3 new alerts") instead of stacking. A later state of the same alert (its tag) replaces it.
 */
export interface ToastBurst {
  /** Each alert's latest content, by tag, in arrival order. */
  readonly byTag: ReadonlyMap<string, NotificationContent>;
}

export function addToBurst(burst: ToastBurst | null, content: NotificationContent): ToastBurst {
  if (!burst) return { byTag: new Map([[content.tag, content]]) };
  const byTag = new Map(burst.byTag);
  byTag.delete(content.tag);
  byTag.set(content.tag, content);
  return { byTag };
}

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
  const ids = new Set(contents.flatMap((content) => content.data.ids));
  const count = Math.max(ids.size, contents.length);
  const pages = new Set(contents.map((content) => content.data.path.split('#')[0]));
  const [onePage] = pages;
  return {
    title: `${count} new alerts`,
    body: '',
    path: pages.size === 1 && onePage ? onePage : '/inbox',
    merged: true,
  };
}
