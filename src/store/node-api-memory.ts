import { get, set, type UseStore } from 'idb-keyval';
import { isResumeAnchor, type ResumeAnchor } from '../domain/state/resume-anchor.ts';
import { openSettingsDatabase } from './keys.ts';
import { isRecord } from '../domain/is-record.ts';

const KEY = 'node-api-versions';
const ANCHORS_KEY = 'node-resume-anchors';
/**
 * Which nodes have the v3 routes, by URL: learned once per node (one probe, a 404 on an older API), remembered
 * across starts so that a restart probes nothing.
 */
export class NodeApiMemory {
  private known = new Map<string, boolean>();
  /** Per node, the block every watched address was complete up to: a resume reads only what came after it. */
  private anchors = new Map<string, ResumeAnchor>();

  constructor(private readonly db: UseStore = openSettingsDatabase()) {}

  async load(): Promise<void> {
    // Unreadable records cost requests, never correctness: the nodes are probed again, and the next resume reads
    // every address once and leaves a new anchor.
    for (const [url, v3] of await this.entries(KEY)) if (typeof v3 === 'boolean') this.known.set(url, v3);
    for (const [url, anchor] of await this.entries(ANCHORS_KEY))
      if (isResumeAnchor(anchor)) this.anchors.set(url, anchor);
  }

  private async entries(key: string): Promise<[string, unknown][]> {
    try {
      const stored: unknown = await get(key, this.db);
      return isRecord(stored) ? Object.entries(stored) : [];
    } catch {
      return [];
    }
  }

  /** The resume anchor of the node at `url`, kept across starts (written when it moves, at most once a reconcile). */
  anchorsOf(url: string): { get(): ResumeAnchor | null; set(anchor: ResumeAnchor): void } {
    return {
      get: () => this.anchors.get(url) ?? null,
      set: (anchor) => {
        this.anchors.set(url, anchor);
        set(ANCHORS_KEY, Object.fromEntries(this.anchors), this.db).catch(() => {});
      },
    };
  }

  v3(url: string): boolean | null {
    return this.known.get(url) ?? null;
  }

  remember(url: string, v3: boolean): void {
    if (this.known.get(url) === v3) return;
    this.known.set(url, v3);
    set(KEY, Object.fromEntries(this.known), this.db).catch(() => {});
  }
}
