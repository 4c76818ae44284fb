import { stakingTitle } from './staking-text.ts';
import { shortPrincipal } from './activity-text.ts';
import { formatStx } from '../amount.ts';
import { failedCallWords, feeSuffix, headline, partiesLine, type Naming } from './effect-text.ts';
import { txEffect } from '../state/tx-effect.ts';
import { isFollowUp, noticeItems, type AlertItem, type Notice, type ShownAs } from '../alerts/alert-plan.ts';
import type { DeliveryVia, InboxEntry } from '../alerts/inbox.ts';
import type { AlertPhase } from '../alerts/alert-ledger.ts';
import type { Network } from '../network.ts';
import type { PoisoningSuspect } from '../address/lookalike.ts';
import type { Activity, TokenMetadata } from '../state/snapshot.ts';
import { pairTag, pairWords, type PairWords } from '../alerts/transfer-pair.ts';

/** What the words of a notification need to know beyond the alert: names a person gave or registered. */
export interface TextContext {
  /** The user's label for a watched address (empty when none). */
  label(principal: string): string;
  /** A BNS name of any address, when known. */
  nameOf(principal: string): string | null;
  token(assetIdentifier: string): TokenMetadata | undefined;
  /** Whether an address is watched on this device; else taken as so when it has a label. */
  watched?(principal: string): boolean;
  /** Whether the transaction brought the address something from a lookalike of a trusted address (see lookalike.ts). */
  suspect?(activity: Activity, principal: string): PoisoningSuspect | null;
}

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
  /** A transfer between two watched addresses, told as one (transfer-pair.ts). */
  readonly pair?: PairWords;
}

/** One alert as a summary tells it: its title in the state the summary shows. */
export interface SummaryLine {
  readonly id: string;
  readonly phase: AlertPhase;
  readonly title: string;
}

/** A notification the system shows now, as read back from it. */
export interface OnScreen {
  readonly title: string;
  readonly data: unknown;
}

/** Whether a notification's data is the app's (the system may hand back anything). */
export function isNotificationData(value: unknown): value is NotificationData {
  if (typeof value !== 'object' || value === null) return false;
  const data = value as Record<string, unknown>;
  return (
    Array.isArray(data['ids']) &&
    data['ids'].every((id) => typeof id === 'string') &&
    typeof data['path'] === 'string' &&
    (data['summary'] === null || typeof data['summary'] === 'object')
  );
}

/** What the page asks of the service worker, and what the service worker tells the page. */
export type AlertRequest = {
  readonly type: 'ALERT';
  readonly content: NotificationContent;
  readonly whileOpen: 'toast' | 'system';
};
export type PageMessage =
  | { readonly type: 'TOAST'; readonly content: NotificationContent }
  | { readonly type: 'OPEN'; readonly path: string; readonly ids: readonly string[] };

const MEMO_LENGTH = 60;
const REVERTED_NOTE = 'A chain re-organisation removed this transaction from its block.';

export const addressPagePath = (principal: string, txId?: string): string =>
  `/address/${encodeURIComponent(principal)}${txId ? `#tx-${txId}` : ''}`;

const displayName = (principal: string, context: TextContext): string =>
  context.label(principal) || shortPrincipal(principal);

const naming = (context: TextContext): Naming => ({
  token: (asset) => context.token(asset),
  party: (principal) => context.label(principal) || context.nameOf(principal) || shortPrincipal(principal),
});

/** A lookalike sender of something received (a failed transaction brought nothing, so it is told as it is). */
const poisoningIn = (item: AlertItem, context: TextContext): PoisoningSuspect | null =>
  item.activity && item.phase !== 'failed' && item.activity.status !== 'failed'
    ? (context.suspect?.(item.activity, item.principal) ?? null)
    : null;

/** Epoch 4.0's status of a transaction a miner included but skipped. */
const SKIPPED = 'problematic_skipped';

/** "Failed: vault.withdraw", "Transfer failed"; a skipped one says so: "Skipped as problematic: pox-5.stake". */
function failedWords(activity: Activity): string {
  const skipped = activity.statusDetail === SKIPPED;
  if (activity.contractCall) return failedCallWords(activity.contractCall, skipped);
  return skipped ? 'Transfer skipped as problematic' : 'Transfer failed';
}

/**
 * "Received 1,250.00 STX", "Sent 40.00 WGOLD · fee 0.0003 STX", "Sending 40.00 STX — pending",
 * "Transfer failed · fee 0.0003 STX", "Reverted: Received 5.00 STX", "Dropped: Sending 40.00 STX". The direction is the address's own net movement.
 */
export function alertTitle(item: AlertItem, context: TextContext): string {
  if (item.phase === 'locked' || item.phase === 'unlocked') {
    const amount = item.amount ?? 0n;
    return (
      stakingTitle(item.subject, amount) ??
      (item.phase === 'locked' ? `${formatStx(amount)} locked for stacking` : `Unlocked ${formatStx(amount)}`)
    );
  }
  const activity = item.activity;
  if (!activity && item.recalled && item.phase === 'reverted')
    return `Reverted: ${item.recalled.title.replace(/ · fee [\d.,]+( STX)?$/, '').replace(/^Reverted: /, '')}`;
  if (!activity) return 'New transaction';
  const effect = txEffect(activity, item.principal);
  const suspect = poisoningIn(item, context);
  if (suspect) {
    const words = `Possible address-poisoning: ${shortPrincipal(suspect.sender)} looks like ${naming(context).party(suspect.imitates)}`;
    return item.phase === 'reverted' || item.phase === 'dropped'
      ? `${item.phase === 'reverted' ? 'Reverted' : 'Dropped'}: ${words}`
      : words;
  }
  if (item.phase === 'failed' || (item.phase === 'reverted' && activity.status === 'failed')) {
    const what = failedWords(activity);
    return item.phase === 'reverted' ? `Reverted: ${what}` : `${what}${feeSuffix(effect)}`;
  }
  // A dropped transaction never moved anything: it is told as what it was going to do.
  const tense = item.phase === 'pending' || item.phase === 'dropped' ? 'pending' : 'done';
  const what = headline(activity, effect, tense, naming(context));
  if (item.phase === 'reverted') return `Reverted: ${what}`;
  if (item.phase === 'dropped') return `Dropped: ${what}`;
  return tense === 'pending' ? `${what} — pending` : `${what}${feeSuffix(effect)}`;
}

/** The label, the other party and the call it went through, the memo as plain truncated text, what a state means. */
export function alertBody(item: AlertItem, context: TextContext): string {
  if (!item.activity && item.recalled && item.phase === 'reverted')
    return [
      ...item.recalled.body.split('\n').filter((line) => !/^(Fee |A chain re-organisation)/.test(line)),
      REVERTED_NOTE,
    ].join('\n');
  const lines = [displayName(item.principal, context)];
  const activity = item.activity;
  if (activity) {
    const effect = txEffect(activity, item.principal);
    const parties = partiesLine(activity, effect, naming(context));
    if (parties) lines.push(parties);
    const suspect = poisoningIn(item, context);
    if (suspect)
      lines.push(
        `Sent by ${suspect.sender}, not ${suspect.imitates}: same first and last characters, a different address. Never copy an address from this transaction.`,
      );
    if (activity.memo) lines.push(`“${truncate(activity.memo.replace(/\s+/g, ' '), MEMO_LENGTH)}”`);
    if (item.phase === 'pending' && effect.signed) lines.push(`Fee ${formatStx(effect.fee)}`);
  }
  const note = followUpNote(item.phase, activity);
  if (note) lines.push(note);
  if (item.phase === 'unlocked') lines.push('These STX can be spent again.');
  if (activity?.statusDetail === SKIPPED && (item.phase === 'failed' || item.phase === 'reverted'))
    lines.push('Miners skipped it as problematic: nothing moved, only the fee was paid.');
  return lines.join('\n');
}

/** What a revert or a drop means, the line its words end with (null for any other state). */
export function followUpNote(phase: AlertPhase, activity: Activity | null): string | null {
  if (phase === 'reverted') return REVERTED_NOTE;
  if (phase !== 'dropped') return null;
  return activity?.replacedBy
    ? 'Replaced by another transaction with the same nonce: this one moved nothing.'
    : 'It left the mempool without being mined: nothing moved.';
}

/**
 * An alert's body without its first line, which names the address (alertBody starts with it, the relay's words
 * too): for a list already headed by that address.
 */
export function bodyUnderSubject(body: string): string {
  const end = body.indexOf('\n');
  return end < 0 ? '' : body.slice(end + 1);
}

const AWAY = 'While you were away: ';

/** A catch-up after a real absence says so, whether it is told alone or in a summary. */
export const awayTitle = (title: string, away: boolean): string => (away ? `${AWAY}${title}` : title);

/** A notification's title without the absence mark: the words the inbox keeps. */
export const plainTitle = (title: string): string => (title.startsWith(AWAY) ? title.slice(AWAY.length) : title);

export function summaryTitle(count: number, subject: string, away: boolean): string {
  return awayTitle(`${count.toLocaleString('en-US')} new transaction${count === 1 ? '' : 's'} on ${subject}`, away);
}

export const summaryTag = (network: Network, principal: string): string => `summary:${network}:${principal}`;
export const OVERALL_TAG = 'summary:all';
export const itemTag = (alertId: string): string => `tx:${alertId}`;
/** The tag a retelling carries: never shown, it only names it (the summaries it changes keep their own). */
export const RETELL_TAG = 'retell';

/** The notification for a notice; a summary's title counts its items (the service worker recounts on merge). */
export function noticeContent(notice: Notice, context: TextContext): NotificationContent {
  if (notice.kind === 'single') {
    const { item } = notice;
    const own = {
      title: awayTitle(alertTitle(item, context), item.catchUp && !isFollowUp(item.phase)),
      body: alertBody(item, context),
    };
    const watched = (principal: string) => context.watched?.(principal) ?? context.label(principal) !== '';
    const pair = pairWords(item, naming(context), watched, own);
    return {
      ...own,
      tag: pair ? pairTag(pair.key) : itemTag(item.id),
      renotify: true,
      phases: { [item.id]: item.phase },
      data: {
        ids: [item.id],
        path: addressPagePath(
          item.principal,
          item.activity?.txId ?? (item.subject.startsWith('0x') ? item.subject : undefined),
        ),
        summary: null,
        ...(pair ? { pair } : {}),
      },
    };
  }
  const items = noticeItems(notice);
  const lines = items.map((item) => ({ id: item.id, phase: item.phase, title: alertTitle(item, context) }));
  if (notice.kind === 'retell') return retelling(lines);
  const addresses = new Set(items.map((item) => `${item.network}:${item.principal}`)).size;
  const subject =
    notice.kind === 'summary'
      ? displayName(notice.principal, context)
      : `${addresses} address${addresses === 1 ? '' : 'es'}`;
  return {
    title: summaryTitle(items.length, subject, notice.away),
    body: summaryBody(lines.map((line) => line.title)),
    tag: notice.kind === 'summary' ? summaryTag(notice.network, notice.principal) : OVERALL_TAG,
    renotify: true,
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: {
      ids: items.map((item) => item.id),
      path: notice.kind === 'summary' ? addressPagePath(notice.principal) : '/inbox',
      summary: { subject, away: notice.away, lines },
    },
  };
}

/** Later states of alerts told inside a summary, as their new lines (tray.ts puts them in place). */
function retelling(lines: readonly SummaryLine[]): NotificationContent {
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
  const summary = next.data.summary;
  if (!summary) return next;
  const ids = [...new Set([...next.data.ids, ...shown.ids])];
  const fresh = summary.lines ?? [];
  const lines = [...fresh, ...(shown.summary?.lines ?? []).filter((line) => !fresh.some((f) => f.id === line.id))];
  return {
    ...next,
    title: summaryTitle(ids.length, summary.subject, summary.away),
    body: summaryBody(
      lines.map((line) => line.title),
      ids.length,
    ),
    phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
    data: { ...next.data, ids, summary: { ...summary, lines } },
  };
}

/**
 * Which of the alerts stored but not recorded as shown the system still shows (the tab closed just after showing
 * them), and how. A single tells the state its title says; a summary stands for every state of its transactions
 * but a revert or a drop, which is always told on its own.
 */
export function shownOnScreen(waiting: readonly InboxEntry[], screen: readonly OnScreen[]): Map<string, DeliveryVia> {
  const byId = new Map(waiting.map((entry) => [entry.id, entry]));
  const shown = new Map<string, DeliveryVia>();
  for (const { title, data } of screen) {
    if (!isNotificationData(data)) continue;
    for (const id of data.ids) {
      const entry = byId.get(id);
      if (!entry || (data.summary ? isFollowUp(entry.phase) : entry.title !== plainTitle(title))) continue;
      shown.set(id, data.summary ? 'summary' : 'notification');
    }
  }
  return shown;
}

/**
 * Alerts stored but never shown, from their stored words, by the planner's rules: a transaction already told on
 * its own replaces its notification, one already told inside a summary is retold there, a quiet one stays in the
 * inbox, and the others are shown one by one when few, else in one summary.
 */
export function storedContents(entries: readonly InboxEntry[], shownAs: ShownAs): NotificationContent[] {
  const single = (entry: InboxEntry): NotificationContent => ({
    title: entry.title,
    body: entry.body,
    tag: itemTag(entry.id),
    renotify: true,
    data: { ids: [entry.id], path: entry.path, summary: null },
  });
  const lineOf = (entry: InboxEntry): SummaryLine => ({ id: entry.id, phase: entry.phase, title: entry.title });
  const updates = entries.filter((entry) => isFollowUp(entry.phase) || shownAs(entry.id) === 'single');
  const fresh = entries.filter((entry) => !updates.includes(entry) && shownAs(entry.id) === null && !entry.quiet);
  const retold = entries.filter((entry) => !updates.includes(entry) && shownAs(entry.id) === 'summary');
  const retell = retold.length > 0 ? [retelling(retold.map(lineOf))] : [];
  if (fresh.length <= 3) return [...updates, ...fresh].map(single).concat(retell);
  const subject = 'your addresses';
  const lines = fresh.map(lineOf);
  return [
    ...updates.map(single),
    {
      title: summaryTitle(fresh.length, subject, true),
      body: summaryBody(fresh.map((entry) => entry.title)),
      tag: OVERALL_TAG,
      renotify: true,
      phases: Object.fromEntries(lines.map((line) => [line.id, line.phase])),
      data: { ids: fresh.map((entry) => entry.id), path: '/inbox', summary: { subject, away: true, lines } },
    },
    ...retell,
  ];
}

const truncate = (text: string, length: number): string =>
  text.length > length ? `${text.slice(0, length - 1)}…` : text;
