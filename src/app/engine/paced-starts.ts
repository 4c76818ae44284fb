import { PACE_WINDOW_MS, type StartsMemory } from '../../chain/scheduler.ts';
import { jsonOrNull } from '../../domain/json-or-null.ts';
import { LOCAL_KEYS } from '../../store/keys.ts';

/**
 * Paces up to this many a minute are kept: the public node's (24, 480 with a key) and most a user sets. A local
 * devnet's 6,000 a minute has no gateway to overrun after a reload, and keeping it would cost a write per request.
 */
const KEPT = 600;

/**
 * While the page is going away (a reload, a navigation), the browser tears its requests down as the navigation starts:
 * they fail without an answer ("Failed to fetch", as for a node out of reach) and the pacer would take them back,
 * though they had reached the node (the next page then ran one over the pace). Meanwhile the memory only adds: what
 * the next page reads keeps them. A page still here after `STILL_HERE_MS` (a navigation that did not happen) counts
 * as ever again.
 */
const STILL_HERE_MS = 10_000;
let leavingSince: number | null = null;
if (typeof addEventListener === 'function') {
  addEventListener('beforeunload', () => (leavingSince = Date.now()));
  addEventListener('pagehide', () => (leavingSince ??= Date.now()));
  addEventListener('pageshow', () => (leavingSince = null));
}
const leaving = (): boolean => leavingSince !== null && Date.now() - leavingSince < STILL_HERE_MS;

/**
 * The times from which this device's requests to a node count against its pace (a request's answer, or the latest it
 * can come while it is on its way), for the pacer's last minute (`PACE_WINDOW_MS`), kept in localStorage: after a reload, or from another tab, the node's minute goes on being counted instead of spent again.
 * Only times are kept, under the node's URL; never an API key. A device that cannot store them (private mode, a full
 * quota) counts in memory alone.
 */
export function pacedStartsOf(nodeUrl: string): StartsMemory {
  const key = LOCAL_KEYS.pacedStarts(nodeUrl);
  let fallback: number[] = [];
  const recall = (): number[] => {
    try {
      const kept = readTimes(localStorage.getItem(key));
      return kept ?? fallback.slice();
    } catch {
      return fallback.slice();
    }
  };
  return {
    maxPace: KEPT,
    recall,
    remember(given) {
      const now = Date.now();
      const starts = leaving() ? added(recall(), given) : given;
      fallback = starts.filter((at) => at > now - PACE_WINDOW_MS && at <= now + PACE_WINDOW_MS).slice(-KEPT);
      try {
        localStorage.setItem(key, JSON.stringify(fallback));
      } catch {
        // Counted in memory meanwhile: the pace holds for this page, only not across a reload.
      }
    },
  };
}

/** What is kept, with whatever `given` holds beyond it: nothing kept is taken away. */
function added(kept: readonly number[], given: readonly number[]): number[] {
  const unmatched = kept.slice();
  const all = kept.slice();
  for (const at of given) {
    const index = unmatched.indexOf(at);
    if (index >= 0) unmatched.splice(index, 1);
    else all.push(at);
  }
  return all.sort((a, b) => a - b);
}

/** What was stored, if it is a list of times; anything else (edited by hand, an older build) counts as nothing. */
function readTimes(text: string | null): number[] | null {
  if (text === null) return null;
  const value = jsonOrNull(text);
  if (!Array.isArray(value)) return [];
  return value.filter((at): at is number => typeof at === 'number' && Number.isFinite(at));
}
