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
  const ids = new Set(contents.flatMap((content) => content.data.ids));
  // A transfer between two watched addresses carries both sides' alerts: it is one alert to the person.
  const paired = contents.reduce((extra, content) => extra + (content.data.pair ? content.data.ids.length - 1 : 0), 0);
  const count = Math.max(ids.size - paired, contents.length);
  const pages = new Set(contents.map((content) => content.data.path.split('#')[0]));
  const [onePage] = pages;
  return {
    title: `${count} new alerts`,
    body: '',
    path: pages.size === 1 && onePage ? onePage : '/inbox',
    merged: true,
  };
}
