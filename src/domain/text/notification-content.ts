import { addressPagePath, alertBody, alertTitle, displayName, naming, type TextContext } from './alert-text.ts';
import { isFollowUp, noticeItems, type AlertItem, type Notice } from '../alerts/alert-plan.ts';
import type { AlertPhase } from '../alerts/alert-ledger.ts';
import type { Network } from '../network.ts';
import { pairTag, pairWords, TITLE_LABEL_LIMIT, type PairWords } from '../alerts/transfer-pair.ts';
import { isRecord } from '../is-record.ts';
import type { InboxEntry } from '../alerts/inbox.ts';

// What a notification carries, from a notice (alert-plan.ts) to the platform and back: its words and tag, the data a
// click and a merge need, summaries and their merge. The alerts' own words are alert-text.ts's; which stored alerts
// the system already shows, and what to show for the others, is notification-recovery.ts's.

/** Exactly what the page hands the service worker to show: plain, structured-cloneable data. */
export interface NotificationContent {
  readonly title: string;
  readonly body: string;
  /** One per transaction and address (a later state replaces it), one per address for its summary. */
  readonly tag: string;
  readonly renotify: boolean;
  readonly data: NotificationData;
  /**
   * The state of each alert this notification tells (by id): what the service worker records as shown. The inbox
   * may hold a later state by the time it shows this one (the page goes on while notifications are on their way).
   */
  readonly phases?: Readonly<Record<string, AlertPhase>>;
  /** A retelling (see tray.ts): never shown itself, it changes the lines of the summaries on screen that tell these. */
  readonly retell?: boolean;
  /**
   * Later states of sides gathered beside their other sides in the overall summary (alert-plan.ts): moved into it
   * while it is on screen, else only retold where they are (tray.ts).
   */
  readonly gather?: boolean;
}

export interface NotificationData {
  /** Alert ids told by this notification; a summary's grow as it is updated. */
  readonly ids: readonly string[];
  /** In-app path a click opens. */
  readonly path: string;
  /** For a summary: the words around its count and the line of each alert, so that a merge can recount and relist. */
  readonly summary: {
    readonly subject: string;
    readonly away: boolean;
    /** Newest first; absent in summaries shown before lines were kept (their alerts count in "and N more"). */
    readonly lines?: readonly SummaryLine[];
  } | null;
  /** A transaction between watched addresses, told as one (transfer-pair.ts). */
  readonly pair?: PairWords;
  /**
   * The state a notification of one alert tells: the side it is, should another side of its transaction join it
   * (tray.ts). Absent on summaries, and on notifications shown before it was kept.
   */
  readonly phase?: AlertPhase;
  /**
   * A transaction a fee bump replaced: the one that took its place (`network:txId`). Its notification leaves the tray
   * once that one is mined (tray.ts), which tells the payment as it stands.
   */
  readonly replacedBy?: string;
}

/** One alert as a summary tells it: its title in the state the summary shows. */
export interface SummaryLine {
  readonly id: string;
  readonly phase: AlertPhase;
  readonly title: string;
  /**
   * The address it is about, as the user knows it: the overall summary's lines start with it ("Bob: Received 5.00
   * STX"). Absent on lines kept before it was.
   */
  readonly who?: string;
}

/** A notification the system shows now, as the service worker reads it back. */
export interface OnScreen {
  readonly title: string;
  readonly data: unknown;
}

/** Whether a notification's data is the app's (the system may hand back anything). */
export function isNotificationData(value: unknown): value is NotificationData {
  if (!isRecord(value)) return false;
  return (
    Array.isArray(value['ids']) &&
    value['ids'].every((id) => typeof id === 'string') &&
    typeof value['path'] === 'string' &&
    (value['summary'] === null || isRecord(value['summary']))
  );
}

/** What the page asks of the service worker, and what the service worker tells the page. */
export type AlertRequest = {
  readonly type: 'ALERT';
  readonly content: NotificationContent;
  readonly whileOpen: 'toast' | 'system';
};
/**
 * What the page asks before it shows again alerts a closed tab stored: which of them the tray shows already (the
 * service worker owns the tray and answers; the page never reads it). Answered with `{ shown: [id, via][] }`.
 */
export type ShownRequest = { readonly type: 'SHOWN'; readonly waiting: readonly InboxEntry[] };
export type PageMessage =
  | { readonly type: 'TOAST'; readonly content: NotificationContent }
  | { readonly type: 'OPEN'; readonly path: string; readonly ids: readonly string[] };

const AWAY = 'While you were away: ';

/** A catch-up after a real absence says so, whether it is told alone or in a summary. */
export const awayTitle = (title: string, away: boolean): string => (away ? `${AWAY}${title}` : title);

/** A notification's title without the absence mark: the words the inbox keeps. */
export const plainTitle = (title: string): string => (title.startsWith(AWAY) ? title.slice(AWAY.length) : title);

/**
 * What a summary counts an alert as: its transaction (`network:txId`), one whichever of its watched addresses it is
 * told for (a transfer between two is one transaction), or the alert itself when it is no transaction's (an unlock).
 */
export const newsKey = (id: string): string => {
  const [network, , subject = ''] = id.split(':');
  return subject.startsWith('0x') ? `${network}:${subject}` : id;
};

/**
 * "3 new transactions on Alice", counting transactions, not the alerts of their sides; "3 new alerts on Alice" once
 * one of them is not a transaction (rewards claimable, an unlock): a summary never counts a staking alert as a
 * transaction.
 */
export function summaryTitle(ids: readonly string[], subject: string, away: boolean): string {
  const count = new Set(ids.map(newsKey)).size;
  const noun = ids.every((id) => id.split(':')[2]?.startsWith('0x')) ? 'transaction' : 'alert';
  return awayTitle(`${count.toLocaleString('en-US')} new ${noun}${count === 1 ? '' : 's'} on ${subject}`, away);
}

export const summaryTag = (network: Network, principal: string): string => `summary:${network}:${principal}`;
export const OVERALL_TAG = 'summary:all';
export const isSummaryTag = (tag: string): boolean => tag.startsWith('summary:');
export const itemTag = (alertId: string): string => `tx:${alertId}`;
/** The tag a retelling carries: never shown, it only names it (the summaries it changes keep their own). */
export const RETELL_TAG = 'retell';

/**
 * The pair an alert told on its own belongs to (transfer-pair.ts), in the words `own` it has as a side; null when it
 * is no transfer between two watched addresses.
 */
export function pairOf(item: AlertItem, context: TextContext, own: { title: string; body: string }): PairWords | null {
  const watched = (principal: string) => context.watched?.(principal) ?? context.label(principal) !== '';
  return pairWords(item, naming(context), watched, own, TITLE_LABEL_LIMIT);
}

/** The notification for a notice; a summary's title counts its items (the service worker recounts on merge). */
export function noticeContent(notice: Notice, context: TextContext): NotificationContent {
  if (notice.kind === 'single') {
    const { item } = notice;
    const own = {
      title: awayTitle(alertTitle(item, context), item.catchUp && !isFollowUp(item.phase, Boolean(item.afterRevert))),
      body: alertBody(item, context),
    };
    const pair = pairOf(item, context, own);
    return {
      ...own,
      tag: pair ? pairTag(pair.key) : itemTag(item.id),
      // Back in the mempool after a revert told before: the revert's notification changes its words without a sound.
      renotify: item.afterRevert !== 'told',
      phases: { [item.id]: item.phase },
      data: {
        ids: [item.id],
        path: addressPagePath(
          item.principal,
          item.activity?.txId ?? (item.subject.startsWith('0x') ? item.subject : undefined),
        ),
        summary: null,
        phase: item.phase,
        ...(pair ? { pair } : {}),
        ...(item.phase === 'dropped' && item.activity?.replacedBy
          ? { replacedBy: `${item.network}:${item.activity.replacedBy}` }
          : {}),
      },
    };
  }
  const items = noticeItems(notice);
  const lines = items.map((item) => ({
    id: item.id,
    phase: item.phase,
    title: alertTitle(item, context),
    who: displayName(item.principal, context),
  }));
  if (notice.kind === 'retell') return retelling(lines);
  const subject =
    notice.kind === 'summary' ? displayName(notice.principal, context) : addressesSubject(items.map((item) => item.id));
  const summary = { subject, away: notice.away, lines };
  const ids = items.map((item) => item.id);
  return {
    ...summaryText(ids, summary, notice.kind === 'overall'),
    tag: notice.kind === 'summary' ? summaryTag(notice.network, notice.principal) : OVERALL_TAG,
    renotify: !(notice.kind === 'overall' && notice.silent),
    ...(notice.kind === 'overall' && notice.silent ? { gather: true } : {}),
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: {
      ids: items.map((item) => item.id),
      path: notice.kind === 'summary' ? addressPagePath(notice.principal) : '/inbox',
      summary,
    },
  };
}

/**
 * A summary's words: "3 new transactions on Alice" over its first lines and "and N more", each line naming its
 * address in the overall summary ("Bob: Received 5.00 STX"), the sides of one transaction on one line ("Alice: Sent
 * 5.00 STX; Bob: Received 5.00 STX"), counted once. A summary of one transaction is that alert, in its words with its
 * address below (and its other sides'): never "1 new transaction on 1 address". It stays a summary under its tag, and
 * grows as one.
 */
export function summaryText(
  ids: readonly string[],
  summary: NonNullable<NotificationData['summary']>,
  overall: boolean,
): { title: string; body: string } {
  // The sides of one transaction on one line, where the first of them was listed (newest first).
  const byNews = new Map<string, SummaryLine[]>();
  for (const line of summary.lines ?? []) byNews.set(newsKey(line.id), [...(byNews.get(newsKey(line.id)) ?? []), line]);
  const groups = [...byNews.values()];
  const said = (line: SummaryLine) => (overall && line.who ? `${line.who}: ${line.title}` : line.title);
  const counted = new Set(ids.map(newsKey)).size;
  const [only] = groups;
  if (only && groups.length === 1 && counted === 1) {
    const [first, ...others] = only;
    const where = first!.who ?? (overall ? '' : summary.subject);
    return {
      title: awayTitle(first!.title, summary.away),
      // Each other side under its address (a line kept before addresses were, under its words alone).
      body: [where, ...others.map((line) => (line.who ? `${line.who}: ${line.title}` : line.title))]
        .filter(Boolean)
        .join('\n'),
    };
  }
  return {
    title: summaryTitle(ids, summary.subject, summary.away),
    body: summaryBody(
      groups.map((group) => group.map(said).join('; ')),
      counted,
    ),
  };
}

/** "3 addresses": how many addresses alerts (`network:principal:subject`) are of, as the overall summary says. */
function addressesSubject(ids: readonly string[]): string {
  const count = new Set(ids.map((id) => id.split(':').slice(0, 2).join(':'))).size;
  return `${count} address${count === 1 ? '' : 'es'}`;
}

/** Later states of alerts told inside a summary, as their new lines (tray.ts puts them in place). */
export function retelling(lines: readonly SummaryLine[]): NotificationContent {
  return {
    title: lines[0]?.title ?? '',
    body: summaryBody(lines.map((line) => line.title)),
    tag: RETELL_TAG,
    renotify: false,
    retell: true,
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: { ids: lines.map((line) => line.id), path: '/inbox', summary: { subject: '', away: false, lines } },
  };
}

/** A summary's body: the first few of its `count` alerts' titles, and how many more. */
export function summaryBody(titles: readonly string[], count = titles.length): string {
  const shown = titles.slice(0, 3);
  const more = count - shown.length;
  return [...shown, ...(more > 0 ? [`and ${more} more`] : [])].join('\n');
}

/**
 * A summary shown again while the one it replaces is still on screen (the service worker merges them): its alerts
 * are the union, each in its latest state (a confirmation replaces its pending line), newest first, and the title
 * counts exactly what the body lists.
 */
export function mergeSummary(shown: NotificationData, next: NotificationContent): NotificationContent {
  const told = next.data.summary;
  if (!told) return next;
  const ids = [...new Set([...next.data.ids, ...shown.ids])];
  // The overall summary names how many addresses all its alerts are of, not only the new ones.
  const summary = next.tag === OVERALL_TAG ? { ...told, subject: addressesSubject(ids) } : told;
  const fresh = summary.lines ?? [];
  const lines = [...fresh, ...(shown.summary?.lines ?? []).filter((line) => !fresh.some((f) => f.id === line.id))];
  return {
    ...next,
    ...summaryText(ids, { ...summary, lines }, next.tag === OVERALL_TAG),
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: { ...next.data, ids, summary: { ...summary, lines } },
  };
}
