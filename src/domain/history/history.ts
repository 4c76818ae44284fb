import type { Network } from '../network.ts';
import type { Activity } from '../state/snapshot.ts';

/**
 * How far an address's full history has been read onto the device. The history is kept in chunks (one per page
 * read, newest chunk first); `cursor` names the next older page at the node. Pure data, stored as it is.
 */
export interface HistoryProgress {
  readonly network: Network;
  readonly principal: string;
  /** Chunk numbers, newest first. */
  readonly chunks: readonly number[];
  readonly nextChunk: number;
  /** The node's cursor of the next older page to read; null with `started` false: read from the newest. */
  readonly cursor: string | null;
  readonly started: boolean;
  /** True once the oldest page was read. */
  readonly complete: boolean;
  /** Transactions kept, and how many the node listed at the last page read. */
  readonly kept: number;
  readonly nodeTotal: number | null;
  /** Epoch ms of the last page stored. */
  readonly readAt: number | null;
}

export const emptyProgress = (network: Network, principal: string): HistoryProgress => ({
  network,
  principal,
  chunks: [],
  nextChunk: 0,
  cursor: null,
  started: false,
  complete: false,
  kept: 0,
  nodeTotal: null,
  readAt: null,
});

/** Where a page read goes: older pages at the end, newer ones (read again from the top later) at the start. */
export type PageEnd = 'older' | 'newer';

/** The progress once a chunk holding `added` transactions is stored. */
export function afterChunk(
  progress: HistoryProgress,
  end: PageEnd,
  added: number,
  page: { next: string | null; total: number },
  at: number,
): HistoryProgress {
  const chunk = progress.nextChunk;
  const chunks =
    added === 0 ? progress.chunks : end === 'older' ? [...progress.chunks, chunk] : [chunk, ...progress.chunks];
  const base = {
    ...progress,
    chunks,
    nextChunk: added === 0 ? chunk : chunk + 1,
    kept: progress.kept + added,
    nodeTotal: page.total,
    readAt: at,
  };
  return end === 'older' ? { ...base, cursor: page.next, started: true, complete: page.next === null } : base;
}

/** Transactions of a page not kept yet, in the page's order (newest first). */
export const unseen = (items: readonly Activity[], known: ReadonlySet<string>): Activity[] =>
  items.filter((activity) => !known.has(activity.txId));

/**
 * What is left to read, as far as the node's count tells: an estimate (new transactions arrive meanwhile), never
 * below zero.
 */
export const remainingOf = (progress: HistoryProgress): number | null =>
  progress.complete ? 0 : progress.nodeTotal === null ? null : Math.max(0, progress.nodeTotal - progress.kept);

/**
 * Seconds left: pages left times what a page has taken, or at least what its requests take at the node's pace.
 * Null until a page tells how many there are.
 */
export function secondsLeft(
  progress: HistoryProgress,
  pageSize: number,
  pace: { secondsPerPage: number; requestsPerPage: number; perMinute: number },
): number | null {
  const remaining = remainingOf(progress);
  if (remaining === null) return null;
  const perPage = Math.max(pace.secondsPerPage, (pace.requestsPerPage * 60) / pace.perMinute);
  return Math.ceil(Math.ceil(remaining / pageSize) * perPage);
}

/** An export the user asked for: which addresses, which dates (UTC days, inclusive), kept until saved. */
export interface ExportJob {
  readonly addresses: readonly { readonly network: Network; readonly principal: string }[];
  /** `YYYY-MM-DD`, or null for no bound. */
  readonly from: string | null;
  readonly to: string | null;
  readonly startedAt: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A `YYYY-MM-DD` day as Unix seconds at its UTC start; null when it is not one. */
export function dayStart(day: string): number | null {
  const match = DAY.exec(day);
  if (!match) return null;
  const ms = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Date(ms).toISOString().startsWith(day) ? ms / 1000 : null;
}

/** The job's dates as a half-open range of Unix seconds (the end day included whole). */
export function rangeOf(job: Pick<ExportJob, 'from' | 'to'>): { from: number | null; until: number | null } {
  const from = job.from ? dayStart(job.from) : null;
  const to = job.to ? dayStart(job.to) : null;
  return { from, until: to === null ? null : to + 86_400 };
}

/** A `YYYY-MM-DD` day as the date fields show it to this user ("Mar 2, 2026"), not in the form's storage format. */
const shownDay = (day: string): string =>
  new Date(dayStart(day)! * 1000).toLocaleDateString(undefined, { timeZone: 'UTC', dateStyle: 'medium' });

/** Why a date range cannot be exported, in the form's words; null when it can. */
export function rangeProblem(from: string, to: string): string | null {
  if (from && dayStart(from) === null) return `The start date “${from}” is not a date: use YYYY-MM-DD.`;
  if (to && dayStart(to) === null) return `The end date “${to}” is not a date: use YYYY-MM-DD.`;
  if (from && to && from > to)
    return `The start date (${shownDay(from)}) is after the end date (${shownDay(to)}): swap them.`;
  return null;
}
