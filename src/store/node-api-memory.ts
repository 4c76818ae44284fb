import { get, set, type UseStore } from 'idb-keyval';
import { openSettingsDatabase } from './keys.ts';

const KEY = 'node-api-versions';

/**
 * Which nodes have the v3 routes, by URL: learned once per node (one probe, a 404 on an older API), remembered
 * across starts so that a restart probes nothing.
 */
export class NodeApiMemory {
  private known = new Map<string, boolean>();

  constructor(private readonly db: UseStore = openSettingsDatabase()) {}

  async load(): Promise<void> {
    try {
      const stored: unknown = await get(KEY, this.db);
      if (typeof stored !== 'object' || stored === null) return;
      for (const [url, v3] of Object.entries(stored)) if (typeof v3 === 'boolean') this.known.set(url, v3);
    } catch {
      // Unreadable: the nodes are probed again, which costs one request each.
    }
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
