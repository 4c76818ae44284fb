import { del, get, getMany, set, type UseStore } from 'idb-keyval';
import { emptyProgress, type ExportJob, type HistoryProgress } from '../domain/history/history.ts';
import { isRecord } from '../domain/is-record.ts';
import type { Network } from '../domain/network.ts';
import type { Activity } from '../domain/state/snapshot.ts';
import { openHistoryDatabase } from './keys.ts';

const HISTORY_VERSION = 1;
/** Addresses' keys start with their network; this one cannot. */
const JOB_KEY = 'export-job';
const progressKey = (network: Network, principal: string) => `${network}:${principal}`;
const chunkKey = (progress: HistoryProgress, chunk: number) =>
  `${progressKey(progress.network, progress.principal)}#${chunk}`;

interface StoredProgress {
  readonly version: typeof HISTORY_VERSION;
  readonly progress: HistoryProgress;
}
interface StoredChunk {
  readonly version: typeof HISTORY_VERSION;
  readonly items: readonly Activity[];
}

/**
 * Full histories in IndexedDB: per address one progress record and its chunks (one per page read). A chunk is
 * written before the progress that names it, so a tab closed in between finds the progress it had and reads that
 * page again; a chunk no progress names is overwritten by the next one. It is the engine's `HistoryPort`.
 */
export class IdbHistoryStore {
  constructor(private readonly db: UseStore = openHistoryDatabase()) {}

  async progress(network: Network, principal: string): Promise<HistoryProgress> {
    const stored = await get<unknown>(progressKey(network, principal), this.db);
    // Another version's record is a cache of the node: read again from the start.
    if (!isRecord(stored) || stored['version'] !== HISTORY_VERSION || !isRecord(stored['progress']))
      return emptyProgress(network, principal);
    return stored['progress'] as unknown as HistoryProgress;
  }

  async chunks(progress: HistoryProgress): Promise<Activity[][]> {
    const values = await getMany<unknown>(
      progress.chunks.map((chunk) => chunkKey(progress, chunk)),
      this.db,
    );
    return values.map((value, index) => {
      if (!isRecord(value) || value['version'] !== HISTORY_VERSION || !Array.isArray(value['items']))
        throw new Error(
          `The stored history of ${progress.principal} is damaged (part ${progress.chunks[index]} does not read)`,
        );
      return value['items'] as Activity[];
    });
  }

  async storeChunk(progress: HistoryProgress, chunk: number, items: readonly Activity[]): Promise<void> {
    const record: StoredChunk = { version: HISTORY_VERSION, items };
    await set(chunkKey(progress, chunk), record, this.db);
  }

  async storeProgress(progress: HistoryProgress): Promise<void> {
    const record: StoredProgress = { version: HISTORY_VERSION, progress };
    await set(progressKey(progress.network, progress.principal), record, this.db);
  }

  /** The export under way, kept so that a reload resumes it; undefined when none. */
  async job(): Promise<ExportJob | undefined> {
    const stored = await get<unknown>(JOB_KEY, this.db);
    return isRecord(stored) && stored['version'] === HISTORY_VERSION && isRecord(stored['job'])
      ? (stored['job'] as unknown as ExportJob)
      : undefined;
  }

  async storeJob(job: ExportJob | null): Promise<void> {
    if (job === null) await del(JOB_KEY, this.db);
    else await set(JOB_KEY, { version: HISTORY_VERSION, job }, this.db);
  }
}
