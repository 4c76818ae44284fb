import { useSyncExternalStore } from 'react';
import type { ExportJob } from '../domain/history/history.ts';
import type { NodeChoices } from '../domain/node-settings.ts';
import { IdbHistoryStore } from '../store/history-store.ts';
import type { TokenCatalog } from '../store/token-catalog.ts';
import type { RunProgress, RunResult } from './history-runner.ts';

/** What the user saved at the end of the last export: the files handed to the browser, and their rows. */
export interface SavedFiles {
  readonly files: readonly string[];
  readonly rows: number;
}

export type ExportState =
  | { readonly phase: 'idle'; readonly saved?: SavedFiles }
  | {
      readonly phase: 'reading';
      readonly job: ExportJob;
      readonly progress: RunProgress | null;
      /** Set after a reload: the export resumed where it stopped. */
      readonly resumed: boolean;
    }
  | { readonly phase: 'ready'; readonly job: ExportJob; readonly result: RunResult; readonly resumed: boolean }
  | { readonly phase: 'elsewhere' }
  /** Cancelled by the user: what was read stays on the device, and a new export goes on from there. */
  | { readonly phase: 'cancelled'; readonly kept: number }
  | { readonly phase: 'failed'; readonly job: ExportJob; readonly message: string };

interface Deps {
  readonly tokens: TokenCatalog;
  readonly nodeChoices: () => NodeChoices;
  readonly nameOf: (principal: string) => string;
}

/** Held while a history is written to the device: the export's, and the address page's reading on (history-pager.ts). */
const HISTORY_LOCK = 'stacks-watch:history-export';
let deps: Deps | null = null;
let state: ExportState = { phase: 'idle' };
let running: AbortController | null = null;
/** Settles when this tab's last run has let go of the lock. */
let ending: Promise<void> = Promise.resolve();
const listeners = new Set<() => void>();
let opened: IdbHistoryStore | null = null;
const historyStore = (): IdbHistoryStore => (opened ??= new IdbHistoryStore());

function set(next: ExportState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

/**
 * The one CSV export of the page: its job is stored before it starts and forgotten once the file is saved or the
 * export cancelled, so that a reload resumes it (`resume`, after the first paint). One tab runs it at a time.
 */
export const historyExports = {
  configure(next: Deps): void {
    deps = next;
  },
  getState: (): ExportState => state,
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  async start(job: Omit<ExportJob, 'startedAt'>): Promise<void> {
    running?.abort();
    const stored: ExportJob = { ...job, startedAt: Date.now() };
    await historyStore().storeJob(stored);
    void run(stored, false);
  },
  async resume(): Promise<void> {
    const job = await historyStore().job();
    if (job && (state.phase === 'idle' || state.phase === 'cancelled')) void run(job, true);
  },
  async cancel(): Promise<void> {
    const was = state;
    running?.abort();
    running = null;
    await historyStore().storeJob(null);
    const kept = was.phase === 'reading' ? (was.progress?.report.progress.kept ?? 0) : 0;
    set({ phase: 'cancelled', kept });
  },
  /** A file made but not saved, set aside by the user: the job is forgotten and the dialog asks for dates again. */
  async discard(): Promise<void> {
    running?.abort();
    running = null;
    await historyStore().storeJob(null);
    set({ phase: 'idle' });
  },
  /** What was saved is said no more (its dialog closed): another export's dialog starts without it. */
  forgetSaved(): void {
    if (state.phase === 'idle' && state.saved) set({ phase: 'idle' });
  },
  /** The files were handed to the browser (`what`: which, said back to the user): the job is done. */
  async saved(what?: SavedFiles): Promise<void> {
    await historyStore().storeJob(null);
    set(what && what.files.length > 0 ? { phase: 'idle', saved: what } : { phase: 'idle' });
  },
};

async function run(job: ExportJob, resumed: boolean): Promise<void> {
  if (!deps) throw new Error('history exports used before configure()');
  const given = deps;
  const controller = new AbortController();
  running = controller;
  set({ phase: 'reading', job, progress: null, resumed });
  const work = async () => {
    const { runExport } = await import('./history-runner.ts');
    try {
      const result = await runExport(job, { ...given, store: historyStore() }, controller.signal, (progress) => {
        if (running === controller) set({ phase: 'reading', job, progress, resumed });
      });
      if (running === controller) set({ phase: 'ready', job, result, resumed });
    } catch (error) {
      if (controller.signal.aborted) return;
      set({ phase: 'failed', job, message: error instanceof Error ? error.message : String(error) });
    }
  };
  // A cancelled run of this tab holds the lock until it has ended (its requests are aborted, its wait for the node's
  // budget cut short, a write under way finishes): the new one waits for it rather than taking it for another tab's.
  const before = ending;
  let ended = (): void => undefined;
  ending = new Promise<void>((resolve) => (ended = resolve));
  try {
    await before;
    if (running !== controller) return;
    if (!('locks' in navigator)) return await work();
    // This tab's address page reading a page or two holds it a moment: wait for that, never for another tab's export.
    await navigator.locks.request(HISTORY_LOCK, { ifAvailable: pagerReads === 0 }, async (lock) => {
      if (lock) await work();
      else set({ phase: 'elsewhere' });
    });
  } finally {
    ended();
  }
}

let pagerReads = 0;

/**
 * Runs the address page's read of older pages under the export's lock when it is free (undefined when it is not):
 * one writer of a history at a time.
 */
export async function whilePagerHoldsLock<T>(read: () => Promise<T>): Promise<T | undefined> {
  if (!('locks' in navigator)) return read();
  return navigator.locks.request(HISTORY_LOCK, { ifAvailable: true }, async (lock) => {
    if (!lock) return undefined;
    pagerReads += 1;
    try {
      return await read();
    } finally {
      pagerReads -= 1;
    }
  });
}

/** Settles once no one (a tab's export, an address page's read) holds the history's lock. */
export async function whenHistoryFree(): Promise<void> {
  if ('locks' in navigator) await navigator.locks.request(HISTORY_LOCK, () => undefined);
}

export function useHistoryExport(): ExportState {
  return useSyncExternalStore(historyExports.subscribe, historyExports.getState);
}
