import { useMemo } from 'react';
import { useInboxEntries } from '../../app/alerts-context.tsx';
import { readAlertFacts } from '../../domain/alerts/alert-facts-read.ts';
import type { InboxEntry } from '../../domain/alerts/inbox.ts';
import type { AwayMark } from '../../domain/history/history-view.ts';
import type { Activity } from '../../domain/state/snapshot.ts';

/**
 * What became of an alert's transaction: its latest state, or a re-org told before it went back to the mempool (a
 * devnet's and a real node's re-org puts the orphaned transactions back there; only mining them again ends the mark).
 */
function awayMark(entry: InboxEntry): AwayMark | null {
  if (entry.phase === 'dropped' || entry.phase === 'reverted') return entry.phase;
  // Back in the mempool after a revert: told so (its facts say it, a revert heard in the same batch too), or a revert
  // recorded as told before it.
  const revertedBefore =
    entry.facts?.afterRevert === true || entry.deliveries.some((delivery) => delivery.phase === 'reverted');
  return entry.phase === 'pending' && revertedBefore ? 'reverted' : null;
}

/**
 * The address's transactions that left the chain, as the alerts recorded them (the engine keeps only what is on the
 * chain): dropped from the mempool or reverted by a re-org, with the transaction as it was told.
 */
export function useAwayMarks(principal: string): ReadonlyMap<string, { mark: AwayMark; activity: Activity | null }> {
  const entries = useInboxEntries();
  return useMemo(() => {
    const away = new Map<string, { mark: AwayMark; activity: Activity | null }>();
    for (const entry of entries) {
      if (entry.principal !== principal || entry.txId === null) continue;
      const mark = awayMark(entry);
      if (!mark) continue;
      const facts = entry.facts ? readAlertFacts(entry.facts) : null;
      away.set(entry.txId, { mark, activity: facts?.ok ? facts.value.activity : null });
    }
    return away;
  }, [entries, principal]);
}
