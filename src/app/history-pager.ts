import { nodeFor } from '../chain/networks.ts';
import { runtimeConfig } from '../chain/page/runtime-config-load.ts';
import { createStore, type Readable } from '../domain/create-store.ts';
import type { HistoryProgress } from '../domain/history/history.ts';
import type { Network } from '../domain/network.ts';
import type { NodeChoices } from '../domain/node-settings.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { readFailureWords } from '../domain/text/node-trouble.ts';
import { downloadHistory } from '../monitor/history-download.ts';
import { IdbHistoryStore } from '../store/history-store.ts';
import { historyExports, whenHistoryFree, whilePagerHoldsLock } from './history-exports.ts';
import { clientFor } from './history-runner.ts';

/** What the address page shows of the history kept on the device, and how reading on goes. */
export interface PagerView {
  /** Every transaction kept, newest first. */
  readonly kept: readonly Activity[];
  readonly progress: HistoryProgress | null;
  readonly reading: boolean;
  /** Why the last read stopped short (offline, the node out of reach), in the user's words; null when it did not. */
  readonly problem: string | null;
  /** Another tab (or this tab's export) is writing this history: its rows appear as it keeps them. */
  readonly busyElsewhere: boolean;
}

/** Pages read each time the user scrolls near the end: two pages of 20 keep a phone's screen ahead of the thumb. */
const PAGES_A_READ = 2;

let opened: IdbHistoryStore | null = null;
const historyStore = (): IdbHistoryStore => (opened ??= new IdbHistoryStore());

/**
 * The address page's full history: what the device keeps of it (the same pages as the CSV export's), and reading
 * older pages on as the user scrolls, through the node's one pacer, one writer at a time (the export's lock).
 */
export function historyPager(network: Network, principal: string, nodeChoices: () => NodeChoices) {
  const view = createStore<PagerView>({
    kept: [],
    progress: null,
    reading: false,
    problem: null,
    busyElsewhere: false,
  });
  let stopped = true;

  const reload = async (): Promise<void> => {
    const store = historyStore();
    const progress = await store.progress(network, principal);
    const kept = (await store.chunks(progress)).flat();
    if (!stopped) view.update((was) => ({ ...was, kept, progress }));
  };

  const read = async (pages: number): Promise<void> => {
    const node = nodeFor(network, await runtimeConfig(), nodeChoices());
    try {
      await downloadHistory({
        rest: clientFor(node),
        store: historyStore(),
        network,
        principal,
        perMinute: node.limits.perMinute,
        olderPages: pages,
        onProgress: () => void reload(),
        onWriteFailure: (error) => console.warn('Could not store a page of history; trying again', error),
      });
      view.update((was) => ({ ...was, problem: null }));
    } catch (error) {
      view.update((was) => ({ ...was, problem: readFailureWords(error, node.name, navigator.onLine) }));
    }
  };

  const readOn = async (pages: number): Promise<void> => {
    if (stopped || view.get().reading) return;
    view.update((was) => ({ ...was, reading: true }));
    try {
      const exporting = historyExports.getState().phase === 'reading';
      const done = exporting ? undefined : await whilePagerHoldsLock(() => read(pages).then(() => true));
      view.update((was) => ({ ...was, busyElsewhere: done === undefined }));
      await reload();
      // Another writer held the history (another tab's export, this page's other reader): read once it lets go, so
      // that what was asked for is read, not left to the next scroll (this tab's export is followed as it goes).
      if (done === undefined && !exporting) void whenHistoryFree().then(() => readOn(pages));
    } finally {
      view.update((was) => ({ ...was, reading: false }));
    }
  };

  const more = async (): Promise<void> => {
    if (!view.get().progress?.complete) await readOn(PAGES_A_READ);
  };

  let unfollow = (): void => undefined;
  return {
    view: view as Readable<PagerView>,
    /** Follows the export (it writes the same history: what it keeps shows here as it goes) and reads what is kept. */
    start(): Promise<void> {
      stopped = false;
      unfollow = historyExports.subscribe(() => void reload());
      return reload();
    },
    more,
    /**
     * Reads what is newer than the history kept, then up to `pages` older pages: for a judgement that needs the
     * history whole and current (a complete history is still read again at its newest end).
     */
    readOn,
    stop(): void {
      stopped = true;
      unfollow();
    },
  };
}

export type HistoryPager = ReturnType<typeof historyPager>;
