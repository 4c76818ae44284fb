import { memo } from 'react';
import type { HistoryRow } from '../../domain/history/history-view.ts';
import type { Network } from '../../domain/network.ts';
import type { Naming } from '../../domain/text/effect-text.ts';
import { ActivityRow } from './ActivityRow.tsx';
import { HistoryAmounts } from './HistoryAmounts.tsx';

interface Props {
  readonly row: HistoryRow;
  readonly principal: string;
  readonly network: Network;
  readonly tipHeight: number | null;
  readonly now: number;
  readonly naming: Naming;
}

/** One row of the full history; drawn again only when what it shows changes, not on every frame of a scroll. */
export const FullHistoryRow = memo(function FullHistoryRow({ row, principal, network, tipHeight, now, naming }: Props) {
  return (
    <ActivityRow
      activity={row.activity}
      principal={principal}
      network={network}
      tipHeight={tipHeight}
      now={now}
      aside={<HistoryAmounts activity={row.activity} principal={principal} mark={row.mark} naming={naming} />}
    />
  );
});
