import { addressPagePath } from '../text/alert-text.ts';
import {
  OVERALL_TAG,
  mergeSummary,
  summaryText,
  type NotificationContent,
  type NotificationData,
  type SummaryLine,
} from '../text/notification-content.ts';
import type { PairSide, PairWords } from './transfer-pair.ts';
import { replacedOnTray, statesOf, supersededOnTray, txKeyOf } from './tray-states.ts';

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
 * One alert, one notification, telling its state now; one transaction between watched addresses, one notification.
 * A summary grows when it is still on screen. An alert told elsewhere (on its own: a revert, a drop, a toast; or in a
 * summary) leaves the notifications that told an earlier state of it, recounted. A side of a shared transaction
 * joins its other sides on screen, whatever tag they were told under. A retelling changes the lines of the summaries
 * on screen that tell its alerts and shows nothing else: a confirmation after a summary never leaves "— pending" in
 * the tray, and never adds a notification of its own.
 */
export function placeOnTray(tray: readonly OnTray[], content: NotificationContent): TrayChange {
  // A fee bump's replaced transaction, its replacement told mined already: the tray tells that payment as it stands.
  if (supersededOnTray(tray, content)) return { show: null, quiet: [], close: [] };
  const replaced = replacedOnTray(tray, content);
  const placed = placement(tray, content);
  const change = replaced.length > 0 ? { ...placed, close: [...placed.close, ...replaced] } : placed;
  if (!change.show?.renotify) return change;
  // A sound only when the tray gains something: a transaction, or a state of one, it did not show a moment before.
  // Another side of a transaction in a state already shown, or a summary shown again with lines moved into it, is
  // nothing new to hear.
  const before = new Set(tray.flatMap(statesOf));
  const states = statesOf(change.show);
  return states.length > 0 && states.every((state) => state !== null && before.has(state))
    ? { ...change, show: { ...change.show, renotify: false } }
    : change;
}

function placement(tray: readonly OnTray[], content: NotificationContent): TrayChange {
  const onScreen = tray.find((notification) => notification.tag === content.tag);
  // Gathered beside their other sides only into the overall summary still on screen; else retold where they are.
  if (content.retell || (content.gather && !onScreen))
    return { show: null, ...retold(tray, content.data.summary?.lines ?? []) };
  if (content.data.summary) {
    const placed = content.tag === OVERALL_TAG ? withOtherSides(tray, content) : content;
    const show = onScreen ? mergeSummary(onScreen.data, placed) : placed;
    return { show, ...without(tray, new Set(placed.data.ids), content.tag) };
  }
  if (!content.data.pair) {
    const show = joinShared(tray, content) ?? content;
    return { show, ...without(tray, new Set(content.data.ids), show.tag) };
  }
  const { sides, strays } = sidesOnScreen(tray, content.tag, content.data.pair.key);
  const change = without(
    tray.filter((notification) => !strays.includes(notification)),
    new Set(content.data.ids),
    content.tag,
  );
  return {
    show: paired(sides, content),
    quiet: change.quiet,
    close: [...change.close, ...strays.map(({ tag }) => tag)],
  };
}

/**
 * The overall summary with the lines of other sides of its transactions that an address's own summary on screen
 * tells (told there before their transaction was known to be shared): they move into it, so that one transaction is
 * on one notification.
 */
function withOtherSides(tray: readonly OnTray[], content: NotificationContent): NotificationContent {
  const summary = content.data.summary!;
  const keys = new Set(content.data.ids.map(txKeyOf));
  const own = new Set(content.data.ids);
  const moved = tray
    .filter((notification) => notification.tag !== content.tag)
    .flatMap((notification) => notification.data.summary?.lines ?? [])
    .filter((line) => keys.has(txKeyOf(line.id)) && !own.has(line.id));
  if (moved.length === 0) return content;
  const lines = [...(summary.lines ?? []), ...moved];
  return {
    ...content,
    phases: { ...content.phases, ...Object.fromEntries(moved.map((line) => [line.id, line.phase])) },
    data: {
      ...content.data,
      ids: [...content.data.ids, ...moved.map((line) => line.id)],
      summary: { ...summary, lines },
    },
  };
}

/**
 * A side told on its own (its transaction not known to be shared by what it holds: a token's sender while pending)
 * whose transaction is on screen as a pair already: it joins that notification as one more side; null when none is.
 */
export function joinShared(tray: readonly OnTray[], content: NotificationContent): NotificationContent | null {
  const [id, ...more] = content.data.ids;
  const phase = content.data.phase;
  if (!id || more.length > 0 || !phase || phase === 'locked' || phase === 'unlocked' || content.data.summary)
    return null;
  const host = tray.find((notification) => notification.data.pair?.key === txKeyOf(id));
  const pair = host?.data.pair;
  if (!host || !pair) return null;
  const side = { phase, title: content.title, body: content.body };
  return paired(pair.sides, {
    ...content,
    tag: host.tag,
    data: { ...content.data, pair: { ...pair, sides: { [id]: side } } },
  });
}

/**
 * The sides of transaction `key` on screen: under its tag, and told on their own under another before the
 * transaction was known to be shared (a token's sender learns its recipient once mined): those strays join it.
 */
export function sidesOnScreen(
  tray: readonly OnTray[],
  tag: string,
  key: string,
): { sides: Readonly<Record<string, PairSide>>; strays: OnTray[] } {
  const sidesOf = (notification: OnTray): [string, PairSide][] => {
    const { pair, summary, ids, phase } = notification.data;
    if (pair?.key === key) return Object.entries(pair.sides);
    if (pair || summary) return [];
    // Shown before the state was kept: a pending one says so in its title.
    const told = phase ?? (/— pending$/.test(notification.title) ? 'pending' : 'confirmed');
    return ids
      .filter((id) => txKeyOf(id) === key)
      .map((id) => [id, { phase: told, title: notification.title, body: notification.body }]);
  };
  const strays = tray.filter(
    (notification) =>
      notification.tag !== tag &&
      !notification.data.summary &&
      notification.data.ids.length > 0 &&
      notification.data.ids.every((id) => txKeyOf(id) === key),
  );
  const here = tray.find((notification) => notification.tag === tag);
  const sides = Object.fromEntries([...(here ? sidesOf(here) : []), ...strays.flatMap(sidesOf)]);
  return { sides, strays };
}

/**
 * One side of a transaction between watched addresses, with other sides on screen under the same tag: told as one,
 * without a second sound when another side already told this state.
 */
export function paired(before: Readonly<Record<string, PairSide>>, content: NotificationContent): NotificationContent {
  const pair = content.data.pair!;
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
  // A retold line keeps the address its place named, should the retelling not name it.
  const byId = new Map(lines.map((line) => [line.id, line]));
  const quiet = tray.flatMap((notification) => {
    const kept = notification.data.summary?.lines;
    if (!kept?.some((line) => byId.has(line.id))) return [];
    return [
      summaryWith(
        notification,
        notification.data.ids,
        kept.map((line) => {
          const told = byId.get(line.id);
          return told ? { ...told, who: told.who ?? line.who } : line;
        }),
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
    ...summaryText(ids, { ...summary, lines }, notification.tag === OVERALL_TAG),
    tag: notification.tag,
    renotify: false,
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: { ...notification.data, ids, summary: { ...summary, lines } },
  };
}
