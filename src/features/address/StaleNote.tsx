import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNow } from '../../app/use-now.ts';
import { AWAY_WORDS } from '../../domain/state/freshness.ts';
import type { Network } from '../../domain/network.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';
import { useFreshness } from './use-freshness.ts';

/**
 * "Last updated 3 hours ago — node unreachable.": when the address's figures were last read, and why nothing newer
 * came. Said once, above the cards, for all of them (the balance, the staking position read with it, the chart, the
 * tokens, the activity): on a phone the first figure is not read as current, and no card passes for current beside
 * another. Nothing while the figures are current. No live region: its age changes every minute, and a screen reader
 * would read it out again each time.
 */
export function StaleNote({ principal, network }: { principal: string; network: Network }) {
  const snapshot = useSnapshot(principal);
  const fresh = useFreshness(snapshot?.syncedAt ?? null, network);
  const now = useNow();
  if (fresh.kind !== 'stale') return null;
  return (
    <p className="notice note freshness address-stale">
      <span>
        Last updated <RelativeTime ms={fresh.at} now={now} /> — {AWAY_WORDS[fresh.away]}.
      </span>
    </p>
  );
}
