import { addressPagePath } from '../text/alert-text.ts';
import {
  mergeSummary,
  summaryBody,
  summaryTitle,
  type NotificationContent,
  type NotificationData,
  type SummaryLine,
} from '../text/notification-content.ts';
import type { PairWords } from './transfer-pair.ts';

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
    const show = onScreen ? mergeSummary(onScreen.data, content) : content;
    return { show, ...without(tray, new Set(content.data.ids), content.tag) };
  }
  const show = content.data.pair
    ? paired(
        tray.find((notification) => notification.tag === content.tag),
        content,
      )
    : content;
  return { show, ...without(tray, new Set(content.data.ids), content.tag) };
}

/**
 * One side of a transaction between watched addresses, with other sides on screen under the same tag: told as one,
 * without a second sound when another side already told this state.
 */
export function paired(onScreen: OnTray | undefined, content: NotificationContent): NotificationContent {
  const pair = content.data.pair!;
  const before = onScreen?.data.pair?.key === pair.key ? onScreen.data.pair.sides : {};
  const sides = { ...before, ...pair.sides };
  const ids = Object.keys(sides);
  if (ids.length < 2) return content;
  const phase = Object.values(pair.sides)[0]?.phase;
  const toldBefore = Object.entries(before).some(([id, side]) => !(id in pair.sides) && side.phase === phase);
  return {
    title: pair.title,
    body: pair.body,
    tag: content.tag,
    renotify: content.renotify && !toldBefore,
    phases: Object.fromEntries(Object.entries(sides).map(([id, side]) => [id, side.phase])),
    data: { ...content.data, ids, path: addressPagePath(pair.to, pair.key.split(':')[1]), pair: { ...pair, sides } },
  };
}

/** The alerts told elsewhere now (a toast, or a notification under `shownAs`): what else told them lets go of them. */
export const leaveTray = (tray: readonly OnTray[], ids: readonly string[], shownAs = ''): TrayChange => ({
  show: null,
  ...without(tray, new Set(ids), shownAs),
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
    if (notification.tag === tag || !notification.data.ids.some((id) => ids.has(id))) continue;
    const left = notification.data.ids.filter((id) => !ids.has(id));
    const pair = notification.data.pair;
    if (left.length === 0) close.push(notification.tag);
    else if (pair) quiet.push(sidesLeft(notification, pair, left));
    else if (notification.data.summary)
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

/**
 * What is left of a pair on screen when a side is told elsewhere (a revert, a drop): the other side's own words, or
 * the pair's still for the sides left of a transaction between three watched addresses or more.
 */
function sidesLeft(notification: OnTray, pair: PairWords, ids: readonly string[]): NotificationContent {
  const sides = Object.fromEntries(ids.flatMap((id) => (pair.sides[id] ? [[id, pair.sides[id]]] : [])));
  const [only] = Object.values(sides);
  const words = ids.length === 1 && only ? only : notification;
  return {
    title: words.title,
    body: words.body,
    tag: notification.tag,
    renotify: false,
    phases: Object.fromEntries(Object.entries(sides).map(([id, side]) => [id, side.phase])),
    data: { ...notification.data, ids, pair: { ...pair, sides } },
  };
}

/** A summary on screen with these alerts and lines: its title counts exactly what its body lists. */
function summaryWith(notification: OnTray, ids: readonly string[], lines: readonly SummaryLine[]): NotificationContent {
  const summary = notification.data.summary!;
  return {
    title: summaryTitle(ids, summary.subject, summary.away),
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
