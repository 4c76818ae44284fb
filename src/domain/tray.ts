import {
  mergeSummary,
  summaryBody,
  summaryTitle,
  type NotificationContent,
  type NotificationData,
  type SummaryLine,
} from './alert-text.ts';

/** A notification the system shows now, as read back from it (its data is the app's). */
export interface OnTray {
  readonly tag: string;
  readonly title: string;
  readonly body: string;
  readonly data: NotificationData;
}

/** What showing one notification does to the tray. */
export interface TrayChange {
  /** The notification to show under its tag, alerting as its `renotify` says; null for a retelling. */
  readonly show: NotificationContent | null;
  /** Summaries on screen whose lines changed: shown again under their own tags, without a sound. */
  readonly quiet: readonly NotificationContent[];
  /** Tags of summaries left with nothing to tell: closed. */
  readonly close: readonly string[];
}

/**
 * One alert, one notification, telling its state now. A summary grows when it is still on screen. An alert told on
 * its own (a revert, a drop, a toast) leaves the summaries that told an earlier state of it, recounted. A retelling
 * changes the lines of the summaries on screen that tell its alerts and shows nothing else: a confirmation after a
 * summary never leaves "— pending" in the tray, and never adds a notification of its own.
 */
export function placeOnTray(tray: readonly OnTray[], content: NotificationContent): TrayChange {
  if (content.retell) return { show: null, ...retold(tray, content.data.summary?.lines ?? []) };
  if (content.data.summary) {
    const onScreen = tray.find((notification) => notification.tag === content.tag);
    return { show: onScreen ? mergeSummary(onScreen.data, content) : content, quiet: [], close: [] };
  }
  return { show: content, ...without(tray, new Set(content.data.ids), content.tag) };
}

/** The alerts told elsewhere now (a toast): the summaries on screen that told them let go of them. */
export const leaveTray = (tray: readonly OnTray[], ids: readonly string[]): TrayChange => ({
  show: null,
  ...without(tray, new Set(ids), ''),
});

function retold(tray: readonly OnTray[], lines: readonly SummaryLine[]): Omit<TrayChange, 'show'> {
  const byId = new Map(lines.map((line) => [line.id, line]));
  const quiet = tray.flatMap((notification) => {
    const kept = notification.data.summary?.lines;
    if (!kept?.some((line) => byId.has(line.id))) return [];
    return [
      summaryWith(
        notification,
        notification.data.ids,
        kept.map((line) => byId.get(line.id) ?? line),
      ),
    ];
  });
  return { quiet, close: [] };
}

function without(tray: readonly OnTray[], ids: ReadonlySet<string>, tag: string): Omit<TrayChange, 'show'> {
  const quiet: NotificationContent[] = [];
  const close: string[] = [];
  for (const notification of tray) {
    if (notification.tag === tag || !notification.data.summary) continue;
    if (!notification.data.ids.some((id) => ids.has(id))) continue;
    const left = notification.data.ids.filter((id) => !ids.has(id));
    if (left.length === 0) close.push(notification.tag);
    else
      quiet.push(
        summaryWith(
          notification,
          left,
          (notification.data.summary.lines ?? []).filter((line) => !ids.has(line.id)),
        ),
      );
  }
  return { quiet, close };
}

/** A summary on screen with these alerts and lines: its title counts exactly what its body lists. */
function summaryWith(notification: OnTray, ids: readonly string[], lines: readonly SummaryLine[]): NotificationContent {
  const summary = notification.data.summary!;
  return {
    title: summaryTitle(ids.length, summary.subject, summary.away),
    body: summaryBody(
      lines.map((line) => line.title),
      ids.length,
    ),
    tag: notification.tag,
    renotify: false,
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: { ...notification.data, ids, summary: { ...summary, lines } },
  };
}
