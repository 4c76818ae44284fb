import type { HistoryProgress } from '../domain/history/history.ts';
import type { Network } from '../domain/network.ts';
import type { Activity } from '../domain/state/snapshot.ts';

/** Where an address's full history is kept (IndexedDB in the page), declared beside the download that fills it. */
export interface HistoryPort {
  progress(network: Network, principal: string): Promise<HistoryProgress>;
  /** The stored chunks, in the progress's order (newest first). */
  chunks(progress: HistoryProgress): Promise<Activity[][]>;
  storeChunk(progress: HistoryProgress, chunk: number, items: readonly Activity[]): Promise<void>;
  storeProgress(progress: HistoryProgress): Promise<void>;
}
