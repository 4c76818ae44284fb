import { useNow } from '../../app/use-now.ts';
import { AWAY_WORDS, type Away } from '../../domain/state/freshness.ts';
import { RelativeTime } from '../../ui/RelativeTime.tsx';

/**
 * "Last updated 3 hours ago — node unreachable.": when the figures above were last read, and why nothing newer
 * came. Never "checked just now" while the node cannot be reached.
 */
export function StaleNote({ at, away }: { at: number; away: Away }) {
  const now = useNow();
  return (
    <p className="note freshness">
      Last updated <RelativeTime ms={at} now={now} /> — {AWAY_WORDS[away]}.
    </p>
  );
}
