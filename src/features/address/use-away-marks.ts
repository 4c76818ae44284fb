import { useMemo } from 'react';
import { useInboxEntries } from '../../app/alerts-context.tsx';
import { readAlertFacts } from '../../domain/alerts/alert-facts-read.ts';
import type { AwayMark } from '../../domain/history/history-view.ts';
import type { Activity } from '../../domain/state/snapshot.ts';

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
      if (entry.phase !== 'dropped' && entry.phase !== 'reverted') continue;
      const facts = entry.facts ? readAlertFacts(entry.facts) : null;
      away.set(entry.txId, { mark: entry.phase, activity: facts?.ok ? facts.value.activity : null });
    }
    return away;
  }, [entries, principal]);
}
