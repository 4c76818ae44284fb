import { isRecord } from '../domain/is-record.ts';
import { jsonOrNull } from '../domain/json-or-null.ts';
import type { Network } from '../domain/network.ts';
import { LOCAL_KEYS } from '../store/keys.ts';

/**
 * Seen failing again within this long of the last sighting: the same trouble, still going on. Longer (the app was
 * closed meanwhile), the node may have answered in between, and the trouble is dated from now.
 */
export const SAME_TROUBLE_MS = 5 * 60_000;

type KeptStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * When a node's trouble began, across reloads: a page knows only when it first failed to reach the node itself
 * (`problemSince`), so a reload said "unreachable since" the reload. Kept with when it was last seen (localStorage:
 * small, synchronous), forgotten once the node answers (`problemSince` null).
 */
export function troubleBegan(
  storage: KeptStorage,
  network: Network,
  problemSince: number | null,
  now: number,
): number | null {
  const key = LOCAL_KEYS.troubleBegan(network);
  try {
    if (problemSince === null) {
      storage.removeItem(key);
      return null;
    }
    const kept = readKept(storage.getItem(key));
    const since = kept && now - kept.seen <= SAME_TROUBLE_MS ? Math.min(kept.since, problemSince) : problemSince;
    storage.setItem(key, JSON.stringify({ since, seen: now }));
    return since;
  } catch {
    // Storage refused (private mode, quota): this page's own knowledge is still true.
    return problemSince;
  }
}

function readKept(text: string | null): { since: number; seen: number } | null {
  const value = jsonOrNull(text);
  const { since, seen } = isRecord(value) ? value : {};
  return Number.isFinite(since) && Number.isFinite(seen) ? { since: since as number, seen: seen as number } : null;
}
