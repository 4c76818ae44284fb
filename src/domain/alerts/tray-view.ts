import { addressPagePath, subjectOfBody } from '../text/alert-text.ts';
import {
  awayTitle,
  itemTag,
  isSummaryTag,
  newsKey,
  OVERALL_TAG,
  summaryText,
  type NotificationContent,
  type SummaryLine,
} from '../text/notification-content.ts';
import type { AlertPhase } from './alert-ledger.ts';
import type { InboxEntry } from './inbox.ts';
import { pairTag, type PairWords } from './transfer-pair.ts';

// The system tray as a function of the inbox. Each alert's latest state is placed once, when it is planned
// (alert-plan.ts): on a notification of its own, in its address's summary, or in the overall one; the placement is
// kept with its inbox entry. What the tray shows is computed here from the entries that are live on it (on screen
// now, or being told now), and the service worker makes the tray match (sw/tray.ts): show, replace or close by tag,
// with a sound only where a notification gains a state it did not show a moment before.

/** Where an alert's latest state is told on the tray: a notification's tag, and whether it was learned while away. */
export interface Placement {
  readonly tag: string;
  readonly away?: true;
}

/** A notification the system shows now, as read back from it (its data is the app's). */
export interface OnTray {
  readonly tag: string;
  readonly title: string;
  readonly body: string;
  readonly data: NotificationContent['data'];
}

/**
 * A revert or a drop corrects what was told: always told on its own, never folded into a summary; so is a
 * transaction back in the mempool after a revert, which is told as that revert until it is mined again.
 */
export const isFollowUp = (phase: AlertPhase, afterRevert = false): boolean =>
  phase === 'reverted' || phase === 'dropped' || (phase === 'pending' && afterRevert);

/** A revert or a drop corrects what was told (so does a transaction back in the mempool after a revert). */
export const correcting = (entry: Pick<InboxEntry, 'phase' | 'facts'>): boolean =>
  isFollowUp(entry.phase, entry.facts?.afterRevert);

/**
 * The news an entry's state is, as a sound counts it: its transaction in that state, or for an alert of no
 * transaction its state when it was learned. A side back in the mempool after a revert is told as the revert and
 * tells the transaction pending again: beside the revert on screen, another side heard pending is nothing new.
 */
const statesOf = (entry: InboxEntry): string[] => {
  const news = newsKey(entry.id);
  if (news === entry.id) return [`${entry.id}|${entry.phase}|${entry.at}`];
  return entry.phase === 'pending' && entry.facts?.afterRevert
    ? [`${news}|reverted`, `${news}|pending`]
    : [`${news}|${entry.phase}`];
};

/**
 * What the tray should show for these entries (on screen now, or being told): every entry on one notification, by
 * the placement it was planned with. The sides of one transaction are on one notification: on their own (its pair's
 * words once two are) if any side is placed on its own, else in one summary. A fee bump's replaced transaction is
 * left out while its replacement is told mined. An entry told before
 * inside a summary that is not on screen (`onScreen`) any more is told by the inbox alone: its summary is not
 * brought back for a later state (nor any summary it moved to).
 */
export function trayOf(entries: readonly InboxEntry[], screen: readonly OnTray[]): NotificationContent[] {
  // A fee bump's replacement told mined: the payment is that one. The inbox's state of it, where these entries hold
  // it, else what the screen shows (a summary's line told mined before a re-org took it back is not mined any more).
  const minedNow = new Map<string, boolean>();
  for (const { id, phase } of entries)
    minedNow.set(newsKey(id), minedNow.get(newsKey(id)) === true || phase === 'confirmed' || phase === 'failed');
  const minedOnScreen = new Set(
    screen
      .flatMap(({ data }) => data.states ?? [])
      .filter((state) => /\|(confirmed|failed)$/.test(state))
      .map((state) => state.split('|')[0]!),
  );
  const mined = (key: string | null) => key !== null && (minedNow.get(key) ?? minedOnScreen.has(key));
  const live = entries.filter((entry) => entry.tray && !(entry.phase === 'dropped' && mined(replacedBy(entry))));
  // Each transaction's sides go where its first side placed on its own goes, else where its first side goes.
  const byNews = groupBy(live, (entry) => (correcting(entry) ? entry.id : newsKey(entry.id)));
  const groups = new Map<string, InboxEntry[]>();
  for (const sides of byNews.values()) {
    const single = sides.find((entry) => !isSummaryTag(entry.tray!.tag));
    const tag = single ? singleTag(sides) : summaryFor(sides, screen);
    if (tag === null) continue;
    groups.set(tag, [...(groups.get(tag) ?? []), ...sides]);
  }
  return [...groups].map(([tag, told]) => (isSummaryTag(tag) ? summaryOf(tag, told) : notificationOf(tag, told)));
}

/** The tag of a transaction's sides told on their own: its pair's when two are told or one knows the other. */
const singleTag = (sides: readonly InboxEntry[]): string => {
  const [first] = sides;
  return sides.length > 1 || first!.pair ? pairTag(newsKey(first!.id)) : itemTag(first!.id);
};

/**
 * The summary a transaction's sides are told in. A side never told in one goes where it was placed (the overall
 * summary where sides of several addresses meet: an address's own names only it); sides told in one before stay in
 * the one on screen, and where it is gone, the inbox alone tells them.
 */
function summaryFor(sides: readonly InboxEntry[], screen: readonly OnTray[]): string | null {
  const toldIn = (side: InboxEntry) => side.deliveries.some((delivery) => delivery.via === 'summary');
  const fresh = sides.find((side) => !toldIn(side));
  const several = new Set(sides.map((side) => side.principal)).size > 1;
  if (fresh) return several ? OVERALL_TAG : fresh.tray!.tag;
  for (const side of sides) {
    const tag = side.tray!.tag;
    if (screen.some((notification) => notification.tag === tag)) return tag;
    const where = screen.find(({ data }) => data.summary && data.ids.includes(side.id));
    if (where) return where.tag;
  }
  return null;
}

function notificationOf(tag: string, sides: readonly InboxEntry[]): NotificationContent {
  // Told in the words of the side that changed last (one being told now, else the latest learned), in its pair's once
  // two sides are told.
  const newest = newestOf(sides);
  const pair = pairOf(sides) ?? (sides.length > 1 ? listed(newest, sides) : null);
  const paired = sides.length > 1 ? pair : undefined;
  const told = paired ? sides : [newest];
  const by = replacedBy(newest);
  return {
    tag,
    renotify: sides.some(isNews),
    phases: Object.fromEntries(sides.map((side) => [side.id, side.phase])),
    title: paired?.title ?? awayTitle(newest.title, Boolean(newest.tray?.away) && !correcting(newest)),
    body: (paired ?? newest).body,
    data: {
      ids: told.map((side) => side.id),
      path: paired ? pairPath(paired) : newest.path,
      summary: null,
      ...(pair ? { pair: { ...pair, sides: Object.fromEntries(told.map((side) => [side.id, sideWords(side)])) } } : {}),
      ...(by && !paired && newest.phase === 'dropped' ? { replacedBy: by } : {}),
      states: [...new Set(sides.flatMap(statesOf))],
    },
  };
}

const sideWords = ({ phase, title, body }: InboxEntry) => ({ phase, title, body });

/** A pair's transaction on its receiving side's page (its key is `network:txId`). */
const pairPath = (pair: PairWords): string => addressPagePath(pair.to, pair.key.split(':')[1]);

/** The side that changed last: one being told now, else the latest learned. */
const newestOf = (sides: readonly InboxEntry[]): InboxEntry =>
  [...sides].sort((a, b) => Number(b.undelivered) - Number(a.undelivered) || b.at - a.at)[0]!;

/** A transaction's pair words: its newest side's, else any side's. */
const pairOf = (sides: readonly InboxEntry[]): PairWords | undefined =>
  newestOf(sides).pair ?? sides.find((side) => side.pair)?.pair;

/**
 * Sides no pair's words tell, as one: two watched recipients of one payer nobody watches (a send-many, a batch
 * payout). The newest side's words, each other side under its address ("Walker: Received 3.00 STX"), as a summary of
 * one transaction says them: every watched address the payment reached is named on the notification.
 */
function listed(newest: InboxEntry, sides: readonly InboxEntry[]): PairWords {
  const lines = [newest, ...sides.filter((side) => side !== newest)].map(lineOf);
  const away = Boolean(newest.tray?.away) && !correcting(newest);
  const words = summaryText(
    lines.map((line) => line.id),
    { subject: '', away, lines },
    true,
  );
  const key = newsKey(newest.id);
  return { key, from: newest.principal, to: newest.principal, ...words, sides: {} };
}

/** An alert as a summary's line says it: its title, under its address as the user knows it. */
const lineOf = (entry: InboxEntry): SummaryLine => ({
  id: entry.id,
  phase: entry.phase,
  title: entry.title,
  who: subjectOfBody(entry.body) || entry.principal,
});

function summaryOf(tag: string, told: readonly InboxEntry[]): NotificationContent {
  // Newest first by when each was first learned: a later state keeps its line where it was.
  const newestFirst = [...told].sort((a, b) => b.firstAt - a.firstAt);
  const lines = newestFirst.map(lineOf);
  const ids = newestFirst.map((entry) => entry.id);
  const overall = tag === OVERALL_TAG;
  const addresses = new Set(told.map((entry) => `${entry.network}:${entry.principal}`)).size;
  // An address's summary is named after its address, whichever line is newest.
  const own = newestFirst.findIndex((entry) => tag === `summary:${entry.network}:${entry.principal}`);
  const subject = overall ? `${addresses} address${addresses === 1 ? '' : 'es'}` : (lines[Math.max(own, 0)]?.who ?? '');
  const summary = { subject, away: told.every((entry) => entry.tray?.away), lines };
  // Sides of one transaction between watched addresses alone in it: the pair's words ("2,437.00 STX · Carol → Alice —
  // pending"), as its own notification says them, not one side's words over the other's.
  const pair = told.length > 1 && new Set(ids.map(newsKey)).size === 1 ? pairOf(told) : undefined;
  return {
    ...(pair ? { title: awayTitle(pair.title, summary.away), body: pair.body } : summaryText(ids, summary, overall)),
    tag,
    // A later state of a line told in a summary changes the line without a sound.
    renotify: told.some((entry) => isNews(entry) && !entry.deliveries.some(({ via }) => via === 'summary')),
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: {
      ids,
      // A summary in a pair's words opens where its own notification would: the transaction, on the receiving side.
      path: pair ? pairPath(pair) : overall ? '/inbox' : addressPagePath(told[0]!.principal),
      summary,
      states: [...new Set(told.flatMap(statesOf))],
    },
  };
}

/**
 * A state not told yet (the tray rings only for one, and only where it shows a state it did not a moment before); a
 * side back in the mempool after a revert that was told is the revert's words changing, not news, wherever the
 * revert's notification is now.
 */
const isNews = (entry: InboxEntry): boolean => {
  const last = [...entry.deliveries].reverse().find((delivery) => delivery.via !== 'inbox');
  return entry.undelivered && !(entry.facts?.afterRevert && entry.phase === 'pending' && last?.phase === 'reverted');
};

/** The transaction (`network:txId`) a fee bump's replaced one was replaced by, if any. */
export const replacedBy = (entry: InboxEntry): string | null => {
  const by = entry.facts?.activity?.replacedBy;
  return typeof by === 'string' ? `${entry.network}:${by}` : null;
};

/** What makes the tray match `next`: notifications shown (a sound where one tells a state not on screen), closed. */
export function trayChanges(
  screen: readonly OnTray[],
  next: readonly NotificationContent[],
): { show: NotificationContent[]; close: string[] } {
  const heard = new Set(screen.flatMap((notification) => notification.data.states ?? []));
  const byTag = new Map(screen.map((notification) => [notification.tag, notification]));
  const show = next.flatMap((content) => {
    const shown = byTag.get(content.tag);
    if (shown && shown.title === content.title && shown.body === content.body && same(shown, content)) return [];
    const news = (content.data.states ?? []).some((state) => !heard.has(state));
    return [{ ...content, renotify: content.renotify && news }];
  });
  const kept = new Set(next.map((content) => content.tag));
  // Quiet changes first, what rings last: the news ends on top.
  show.sort((a, b) => Number(a.renotify) - Number(b.renotify));
  return { show, close: screen.filter((notification) => !kept.has(notification.tag)).map(({ tag }) => tag) };
}

/**
 * The same alerts in the same states (words alike may tell another state: a side's own words under a pair); a
 * notification shown before states were kept, by its words alone.
 */
const same = (shown: OnTray, content: NotificationContent): boolean =>
  [...shown.data.ids].sort().join() === [...content.data.ids].sort().join() &&
  (shown.data.states === undefined ||
    [...shown.data.states].sort().join() === [...(content.data.states ?? [])].sort().join());

/** Values by a key of each, in their order. */
export function groupBy<T>(values: readonly T[], keyOf: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) groups.set(keyOf(value), [...(groups.get(keyOf(value)) ?? []), value]);
  return groups;
}
