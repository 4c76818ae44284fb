import { createStore } from '../domain/create-store.ts';
import { NETWORK_LABEL, NETWORKS, type Network } from '../domain/network.ts';
import { unreachableLine } from '../domain/text/node-trouble.ts';
import { formatter } from '../domain/text/time-text.ts';
import { nodeAway, statusBoard } from './connection-status.ts';
import { troubleBegan } from './trouble-began.ts';
import { useStore } from './use-store.ts';

/** Each network's "Mainnet node unreachable since 10:42 · next try in 35 s", for the networks whose node is away. */
type TroubleLines = Readonly<Partial<Record<Network, string>>>;

export function linesNow(online: boolean, now: number): { lines: TroubleLines; counting: boolean } {
  const lines: Partial<Record<Network, string>> = {};
  let counting = false;
  // Offline, the offline bar says it; a node that answers over REST while its feed reconnects is not away.
  if (!online) return { lines, counting };
  const statuses = statusBoard.get();
  for (const network of NETWORKS) {
    const status = statuses[network];
    if (!status) continue;
    if (!nodeAway(status)) {
      // The node answered this page (its feed is live, or it told the tip): its trouble, if any was kept, is over. A
      // page just started, with nothing tried yet, knows nothing of it, and the kept time stands.
      if (status.feed === 'live' || (status.problem === null && status.tip !== null)) keptTrouble(network, null, now);
      continue;
    }
    const began = status.problemSince ? keptTrouble(network, status.problemSince, now) : null;
    // "10:42 AM" kept on one line: a phone's row wrapped "AM" alone onto the next.
    const since = began
      ? formatter(undefined, { hour: '2-digit', minute: '2-digit' }).format(began).replace(/\s/g, '\u00a0')
      : null;
    const retryAt = status.retryAt ?? null;
    counting ||= retryAt !== null;
    lines[network] = unreachableLine(NETWORK_LABEL[network], since, retryAt, now);
  }
  return { lines, counting };
}

/** troubleBegan over this page's localStorage, or the page's own time where the browser withholds storage. */
function keptTrouble(network: Network, problemSince: number | null, now: number): number | null {
  try {
    return troubleBegan(localStorage, network, problemSince, now);
  } catch {
    return problemSince;
  }
}

const sameLines = (a: TroubleLines, b: TroubleLines): boolean => NETWORKS.every((network) => a[network] === b[network]);

/**
 * The lines, derived once for every place that shows them (a thousand rows of a list among them): the statuses,
 * the device's connection and, while a next try waits, a clock ticking every second are followed here once, not
 * by each row. A row follows only its network's line, a string, and draws again only when it changes.
 */
const troubleLines = createStore<TroubleLines>({}, (set) => {
  let current: TroubleLines = {};
  let ticking: ReturnType<typeof setInterval> | null = null;
  const refresh = () => {
    const { lines, counting } = linesNow(navigator.onLine, Date.now());
    if (!sameLines(lines, current)) set((current = lines));
    if (counting && ticking === null) ticking = setInterval(refresh, 1000);
    if (!counting && ticking !== null) {
      clearInterval(ticking);
      ticking = null;
    }
  };
  const stopStatuses = statusBoard.subscribe(refresh);
  addEventListener('online', refresh);
  addEventListener('offline', refresh);
  refresh();
  return () => {
    stopStatuses();
    removeEventListener('online', refresh);
    removeEventListener('offline', refresh);
    if (ticking !== null) clearInterval(ticking);
    ticking = null;
    set((current = {}));
  };
});

/** The network's trouble line, or null while its node answers (or the device is offline). */
export const useTroubleLine = (network: Network): string | null =>
  useStore(troubleLines, (lines) => lines[network] ?? null);
