import { addressPagePath, alertBody, alertTitle, naming, type TextContext } from './alert-text.ts';
import type { AlertItem } from '../alerts/alert-plan.ts';
import type { InboxEntry } from '../alerts/inbox.ts';
import { withAlert } from '../alerts/inbox-alert.ts';
import type { Placement } from '../alerts/tray-view.ts';
import type { AlertPhase } from '../alerts/alert-ledger.ts';
import type { Network } from '../network.ts';
import { pairWords, TITLE_LABEL_LIMIT, type PairWords } from '../alerts/transfer-pair.ts';
import { isRecord } from '../is-record.ts';

// What a notification carries, from the tray's view of the inbox (tray-view.ts) to the platform and back: its words
// and tag, the data a click needs, and a summary's words. The alerts' own words are alert-text.ts's.

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
   * A transaction a fee bump replaced: the one that took its place (`network:txId`). Its notification leaves the tray
   * once that one is mined (tray-view.ts), which tells the payment as it stands.
   */
  readonly replacedBy?: string;
  /**
   * The news it tells, one per transaction and state (tray-view.ts): a notification that tells one not on screen a
   * moment before makes a sound, one that tells only what was on screen does not.
   */
  readonly states?: readonly string[];
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

/**
 * What the page asks of the service worker: to tell the latest states of these alerts, stored in the inbox with where
 * each goes on the tray (sw/tray.ts). Answered with `{ via: [id, DeliveryVia][] }`, or `{ error }`.
 */
export type TellRequest = {
  readonly type: 'TELL';
  readonly ids: readonly string[];
  readonly whileOpen: 'toast' | 'system';
};
/** What the service worker tells the page: a toast to show, or a notification the user clicked. */
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

export const summaryTag = (network: Network, principal: string): string => `summary:${network}:${principal}`;
export const OVERALL_TAG = 'summary:all';
export const isSummaryTag = (tag: string): boolean => tag.startsWith('summary:');
export const itemTag = (alertId: string): string => `tx:${alertId}`;
export interface AlertWords {
  readonly title: string;
  readonly body: string;
}

/** An alert's own words: its title and body as alert-text.ts says them. */
export const alertWords = (item: AlertItem, context: TextContext): AlertWords => ({
  title: alertTitle(item, context),
  body: alertBody(item, context),
});

/**
 * The inbox entry after an alert's new state: its words (and, for a side of a transaction between watched addresses,
 * the pair's), told on the tray where `tray` says (absent: nowhere new).
 */
export function withAlertWorded(
  entry: InboxEntry | undefined,
  item: AlertItem,
  context: TextContext,
  tray: Placement | undefined,
  /** Its own words, where they were built already (alertWords, over the same context). */
  own: AlertWords = alertWords(item, context),
): InboxEntry {
  return withAlert(entry, item, {
    ...own,
    path: addressPagePath(item.principal, item.activity?.txId ?? entry?.txId ?? undefined),
    pair: item.quiet ? null : pairOf(item, context, own),
    ...(tray ? { tray } : {}),
  });
}

/**
 * The pair an alert told on its own belongs to (transfer-pair.ts), in the words `own` it has as a side; null when it
 * is no transfer between two watched addresses.
 */
export function pairOf(item: AlertItem, context: TextContext, own: { title: string; body: string }): PairWords | null {
  const watched = (principal: string) => context.watched?.(principal) ?? context.label(principal) !== '';
  return pairWords(item, naming(context), watched, own, TITLE_LABEL_LIMIT);
}

/**
 * A summary's words: "3 new transactions on Alice" over its first lines and "and N more", counting transactions, not
 * the alerts of their sides ("3 new alerts on Alice" once one of them is not a transaction, rewards claimable, an
 * unlock: a summary never counts a staking alert as a transaction); each line naming its address in the overall summary
 * ("Bob: Received 5.00 STX"), the sides of one transaction on one line ("Alice: Sent 5.00 STX; Bob: Received 5.00
 * STX"), counted once. A summary of one transaction is that alert, in its words with its address below (and its other
 * sides'): never "1 new transaction on 1 address" (one with pair words is told in those: tray-view.ts). It stays a
 * summary under its tag, and grows as one.
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
  const noun = ids.every((id) => id.split(':')[2]?.startsWith('0x')) ? 'transaction' : 'alert';
  const title = `${counted.toLocaleString('en-US')} new ${noun}${counted === 1 ? '' : 's'} on ${summary.subject}`;
  const shown = groups.slice(0, SUMMARY_LINES).map((group) => group.map(said).join('; '));
  const more = counted - shown.length;
  return {
    title: awayTitle(title, summary.away),
    body: [...shown, ...(more > 0 ? [summaryMoreLine(more)] : [])].join('\n'),
  };
}

/** How many lines a summary lists its transactions in; "and N more" counts the others. */
const SUMMARY_LINES = 3;

/** A summary's last line, after the transactions it lists: "and 13 more". */
export const summaryMoreLine = (more: number): string => `and ${more} more`;

/**
 * How many transactions a summary's words leave to its "and N more" line (summaryText): none for one that is not a
 * summary, or lists them all.
 */
export function summaryUnlisted(data: NotificationData): number {
  if (!data.summary) return 0;
  const counted = new Set(data.ids.map(newsKey)).size;
  const listed = new Set((data.summary.lines ?? []).map((line) => newsKey(line.id))).size;
  if (counted === 1 && listed === 1) return 0;
  return Math.max(0, counted - Math.min(listed, SUMMARY_LINES));
}
