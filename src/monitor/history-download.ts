import { readHistoryPage, type HistoryPage } from '../chain/history-pages.ts';
import { NodeError, TX_PAGE_LIMIT, type StacksRestClient } from '../chain/rest-client.ts';
import { afterChunk, secondsLeft, unseen, type HistoryProgress, type PageEnd } from '../domain/history/history.ts';
import { doubledWait, type Backoff } from '../domain/backoff.ts';
import { untilAborted } from '../domain/until-aborted.ts';
import type { Network } from '../domain/network.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import type { HistoryPort } from './history-port.ts';

export interface DownloadReport {
  readonly progress: HistoryProgress;
  /** Requests this download has sent so far. */
  readonly requests: number;
  /** Estimated seconds left; null until the node said how many transactions it lists. */
  readonly secondsLeft: number | null;
}

export interface HistoryDownloadDeps {
  readonly rest: StacksRestClient;
  readonly store: HistoryPort;
  readonly network: Network;
  readonly principal: string;
  /** The node's budget a minute (its pacer's), for the estimate. */
  readonly perMinute: number;
  readonly signal?: AbortSignal;
  /** Unix seconds: older pages are not needed once one reaches before this (an export's start date). */
  readonly notBefore?: number | null;
  /** At most this many older pages this time (the address page reads on as its user scrolls); all when absent. */
  readonly olderPages?: number;
  readonly onProgress?: (report: DownloadReport) => void;
  /** A write the device refused: said, then tried again. */
  readonly onWriteFailure?: (error: unknown) => void;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Between tries of a write the device refused: half a second, doubling up to 30 s. */
const WRITE_RETRY: Backoff = { firstMs: 500, maxMs: 30_000 };
/** A budget window is a minute. */
const RATE_LIMIT_WAIT_MS = 30_000;

/**
 * Reads an address's whole mined history onto the device, page by page through the node's pacer, from where it
 * stopped: first what is newer than the newest page kept, then older pages to the oldest. Each page's chunk is
 * stored before the progress that names it moves; a refused write is tried again until it is stored or the
 * download is cancelled, never skipped.
 */
export async function downloadHistory(deps: HistoryDownloadDeps): Promise<DownloadReport> {
  const { rest, store, network, principal, signal } = deps;
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let progress = await store.progress(network, principal);
  const kept = (await store.chunks(progress)).flat();
  const known = new Set(kept.map((activity) => activity.txId));
  let oldest = kept.reduce((least, activity) => Math.min(least, activity.time), Infinity);
  let requests = 0;
  let pages = 0;
  const startedAt = now();
  const report = (): DownloadReport => {
    const requestsPerPage = pages === 0 ? 1 : requests / pages;
    const secondsPerPage = pages === 0 ? 0 : (now() - startedAt) / 1000 / pages;
    const left = secondsLeft(progress, TX_PAGE_LIMIT, { secondsPerPage, requestsPerPage, perMinute: deps.perMinute });
    return { progress, requests, secondsLeft: left };
  };

  const read = async (cursor: string | null): Promise<HistoryPage> => {
    for (let refusals = 1; ; refusals++) {
      signal?.throwIfAborted();
      try {
        const page = await readHistoryPage(rest, principal, cursor, signal);
        requests += page.requests;
        pages += 1;
        return page;
      } catch (error) {
        // Still refused after the pacer's own retries: the node's window is spent (another tab, the page before a
        // reload): wait for it to renew rather than give up on a long download.
        if (!(error instanceof NodeError) || error.status !== 429) throw error;
        await untilAborted(sleep(Math.min(RATE_LIMIT_WAIT_MS * refusals, 2 * RATE_LIMIT_WAIT_MS)), signal);
      }
    }
  };

  const keep = async (end: PageEnd, items: readonly Activity[], page: HistoryPage): Promise<void> => {
    const chunk = progress.nextChunk;
    if (items.length > 0) await stored(() => store.storeChunk(progress, chunk, items));
    const next = afterChunk(progress, end, items.length, page, now());
    await stored(() => store.storeProgress(next));
    progress = next;
    for (const activity of items) known.add(activity.txId);
    deps.onProgress?.(report());
  };

  const stored = async (write: () => Promise<void>): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      signal?.throwIfAborted();
      try {
        return await write();
      } catch (error) {
        deps.onWriteFailure?.(error);
        await sleep(doubledWait(WRITE_RETRY, attempt + 1));
      }
    }
  };

  if (progress.started) {
    // Newer transactions arrived since: read from the newest page down to the first one already kept.
    const newer: Activity[] = [];
    let cursor: string | null = null;
    let last: HistoryPage;
    for (;;) {
      last = await read(cursor);
      const fresh = unseen(last.items, known);
      newer.push(...fresh);
      if (fresh.length < last.items.length || last.next === null) break;
      cursor = last.next;
    }
    await keep('newer', newer, { ...last, next: progress.cursor });
  }
  deps.onProgress?.(report());
  for (
    let older = 0;
    !progress.complete && !(deps.notBefore != null && oldest < deps.notBefore) && older < (deps.olderPages ?? Infinity);
    older++
  ) {
    let page: HistoryPage;
    try {
      page = await read(progress.cursor);
    } catch (error) {
      // A cursor the node no longer knows (its block was orphaned): read from the newest again, keeping what is kept.
      if (!(error instanceof NodeError) || progress.cursor === null || (error.status !== 400 && error.status !== 404))
        throw error;
      page = await read(null);
    }
    await keep('older', unseen(page.items, known), page);
    oldest = Math.min(oldest, ...page.items.map((activity) => activity.time));
  }
  return report();
}
