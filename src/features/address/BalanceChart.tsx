import { useId, useState } from 'react';
import { useNow } from '../../app/use-now.ts';
import { useSnapshot } from '../../app/snapshot-context.tsx';
import { formatStx } from '../../domain/amount.ts';
import { balanceHistory } from '../../domain/chart/balance-history.ts';
import { CHART_PERIODS, pointsInPeriod, type ChartPeriod } from '../../domain/chart/chart-scale.ts';
import { exactTime } from '../../domain/text/time-text.ts';
import { useMedia } from '../../ui/use-media.ts';
import { ChartPlot } from './ChartPlot.tsx';
import { useWidth } from './use-width.ts';

/**
 * The STX balance over the known history: a period choice, value and time axes, and a tooltip that follows the
 * pointer or the arrow keys. Hand-drawn SVG: a chart library would cost more than the whole first screen.
 */
export function BalanceChart({ principal }: { principal: string }) {
  const snapshot = useSnapshot(principal);
  const now = useNow();
  const [period, setPeriod] = useState<ChartPeriod>('all');
  const [selected, setSelected] = useState<number | null>(null);
  const [frame, width] = useWidth<HTMLDivElement>(360);
  const name = useId();
  // A finger touches rather than points, and a phone has no arrow keys to offer.
  const touch = useMedia('(pointer: coarse)');
  if (!snapshot?.stx || snapshot.recent.length === 0) return null;
  const nowSeconds = Math.floor(now / 1000);
  const points = pointsInPeriod(balanceHistory(snapshot.stx.total, snapshot.recent, nowSeconds), period, nowSeconds);
  const active = selected !== null && selected < points.length ? points[selected] : undefined;
  const first = points[0];
  const last = points.at(-1);
  return (
    <section className="card balance-chart" aria-labelledby="chart-heading">
      <div className="chart-head">
        <h2 id="chart-heading">Balance history</h2>
        <fieldset className="segmented">
          <legend className="visually-hidden">Period</legend>
          {CHART_PERIODS.map(([value, words]) => (
            <label key={value} className={period === value ? 'selected' : undefined}>
              <input
                type="radio"
                name={name}
                className="visually-hidden"
                checked={period === value}
                onChange={() => {
                  setPeriod(value);
                  setSelected(null);
                }}
              />
              {words}
            </label>
          ))}
        </fieldset>
      </div>
      <div ref={frame} className="chart-frame">
        {points.length < 2 || !first || !last ? (
          <p className="note">No change in this period.</p>
        ) : (
          <ChartPlot
            points={points}
            width={width}
            selected={selected}
            onSelect={setSelected}
            label={`STX balance over the last ${snapshot.recent.length} transactions, from ${formatStx(first.balance)} to ${formatStx(last.balance)}`}
          />
        )}
      </div>
      <p className="chart-tooltip" aria-live="polite">
        {active ? (
          <>
            <strong className="figure">{formatStx(active.balance)}</strong>{' '}
            <span className="muted">{exactTime(active.time * 1000)}</span>
          </>
        ) : (
          <span className="muted">
            {touch
              ? 'Touch the line to read a balance.'
              : 'Point at the line, or focus it and use the arrow keys, to read a balance.'}
          </span>
        )}
      </p>
    </section>
  );
}
