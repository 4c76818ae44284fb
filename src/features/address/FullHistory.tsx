import './full-history.css';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useAppStores } from '../../app/AppProviders.tsx';
import { useStatuses } from '../../app/connection-status.ts';
import { historyPager } from '../../app/history-pager.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { useNaming } from '../../app/use-naming.ts';
import { useNow } from '../../app/use-now.ts';
import { useStore } from '../../app/use-store.ts';
import {
  historyRows,
  matchesFilter,
  unreadNewer,
  type HistoryFilter,
  type HistoryRow,
} from '../../domain/history/history-view.ts';
import type { Network } from '../../domain/network.ts';
import { VirtualList } from '../../ui/VirtualList.tsx';
import { FullHistoryRow } from './FullHistoryRow.tsx';
import { HistoryFilters } from './HistoryFilters.tsx';
import { HistoryStatus } from './HistoryStatus.tsx';
import { useAwayMarks } from './use-away-marks.ts';

/** A row's height before it is measured: a title, a line of parties and time, an amount. */
const ROW_ESTIMATE = 96;
const keyOf = (row: HistoryRow) => row.activity.txId;

/**
 * Every transaction of the address: what the engine follows, the pages kept on the device (the CSV export's too) and
 * those that left the chain, marked; older pages read from the node as the user scrolls near the end. Loaded only
 * when asked for, so that the first paint does not carry it.
 */
export default function FullHistory({ principal, network }: { principal: string; network: Network }) {
  const { settings } = useAppStores();
  const pager = useMemo(() => historyPager(network, principal, settings.get), [network, principal, settings]);
  useEffect(() => {
    void pager.start().then(() => pager.more());
    return () => pager.stop();
  }, [pager]);
  const view = useStore(pager.view);
  const snapshot = useSnapshot(principal);
  const away = useAwayMarks(principal);
  const [filter, setFilter] = useState<HistoryFilter>('all');
  const naming = useNaming();
  const tip = useStatuses()[network]?.tip ?? null;
  const now = useNow();
  const rows = useMemo(
    () => historyRows({ pending: snapshot?.pending ?? [], recent: snapshot?.recent ?? [], kept: view.kept, away }),
    [snapshot, view.kept, away],
  );
  // Left open, the engine's newest slide past the history read when it opened: what lies between is read then, once
  // for each transaction that arrives while it is missing (one read at a time: a read under way reads it too).
  const gap = useMemo(() => unreadNewer(view.kept, snapshot?.recent ?? []), [view.kept, snapshot]);
  const newest = snapshot?.recent[0]?.txId;
  useEffect(() => {
    if (gap) void pager.readOn(0);
  }, [gap, newest, pager]);
  const shown = useMemo(
    () => (filter === 'all' ? rows : rows.filter((row) => matchesFilter(row, filter, principal))),
    [rows, filter, principal],
  );
  // A read that stopped short (offline) is tried again only when the user asks: scrolling never loops on it.
  const more = useCallback(() => {
    if (!view.problem) void pager.more();
  }, [pager, view.problem]);
  const tipHeight = tip?.height ?? null;
  const render = (row: HistoryRow) => (
    <FullHistoryRow
      key={row.activity.txId}
      row={row}
      principal={principal}
      network={network}
      tipHeight={tipHeight}
      now={now}
      naming={naming}
    />
  );
  return (
    <section className="card activity-card full-history" aria-labelledby="full-history-heading">
      <h2 id="full-history-heading">Full history</h2>
      <HistoryFilters value={filter} onChange={setFilter} />
      <p className="note" aria-live="polite">
        {shown.length} of {rows.length} transaction{rows.length === 1 ? '' : 's'} shown
      </p>
      <VirtualList
        items={shown}
        keyOf={keyOf}
        render={render}
        dataKey="tx"
        estimate={ROW_ESTIMATE}
        onNearEnd={more}
        className="activity history-list"
        label="Transactions"
      />
      <HistoryStatus view={view} listed={rows.length} gap={gap} onRetry={() => void pager.more()} />
    </section>
  );
}
