import { PACE_WINDOW_MS, type StartsMemory } from '../../chain/scheduler.ts';
import { LOCAL_KEYS } from '../../store/keys.ts';

/**
 * Paces up to this many a minute are kept: the public node's (24, 480 with a key) and most a user sets. A local
 * devnet's 6,000 a minute has no gateway to overrun after a reload, and keeping it would cost a write per request.
 */
const KEPT = 600;

/**
 * The times from which this device's requests to a node count against its pace (a request's answer, or the latest it
 * can come while it is on its way), for the pacer's last minute (`PACE_WINDOW_MS`), kept in localStorage: after a reload, or from another tab, the node's minute goes on being counted instead of spent again.
 * Only times are kept, under the node's URL; never an API key. A device that cannot store them (private mode, a full
 * quota) counts in memory alone.
 */
export function pacedStartsOf(nodeUrl: string): StartsMemory {
  const key = LOCAL_KEYS.pacedStarts(nodeUrl);
  let fallback: number[] = [];
  return {
    maxPace: KEPT,
    recall() {
      try {
        const kept = readTimes(localStorage.getItem(key));
        return kept ?? fallback.slice();
      } catch {
        return fallback.slice();
      }
    },
    remember(starts) {
      const now = Date.now();
      fallback = starts.filter((at) => at > now - PACE_WINDOW_MS && at <= now + PACE_WINDOW_MS).slice(-KEPT);
      try {
        localStorage.setItem(key, JSON.stringify(fallback));
      } catch {
        // Counted in memory meanwhile: the pace holds for this page, only not across a reload.
      }
    },
  };
}

/** What was stored, if it is a list of times; anything else (edited by hand, an older build) counts as nothing. */
function readTimes(text: string | null): number[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.filter((at): at is number => typeof at === 'number' && Number.isFinite(at));
  } catch {
    return [];
  }
}
