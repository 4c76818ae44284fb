import type { KeyboardEvent, PointerEvent } from 'react';
import type { BalancePoint } from '../../domain/chart/balance-history.ts';
import { axisLabels, nearestPoint, niceTicks, STX_STEP, stxForChart } from '../../domain/chart/chart-scale.ts';
import { timeAxisLabel } from '../../domain/chart/chart-time.ts';

const HEIGHT = 200;
const MARGIN = { top: 12, right: 12, bottom: 26 };
/** Room for the value labels: about a character's width each (12 px tabular figures), at least the usual 52 px. */
const leftMargin = (labels: readonly string[]) => Math.max(52, 12 + 7 * Math.max(0, ...labels.map((l) => l.length)));

/** The drawing: grid lines and labels on both axes, the balance as steps, the selected point marked. */
export function ChartPlot({
  points,
  width,
  selected,
  onSelect,
  label,
}: {
  points: readonly BalancePoint[];
  width: number;
  selected: number | null;
  onSelect: (index: number | null) => void;
  label: string;
}) {
  const values = points.map((point) => stxForChart(point.balance));
  const ticks = niceTicks(Math.min(...values), Math.max(...values), 4, STX_STEP);
  const [low, high] = [ticks[0] ?? 0, ticks.at(-1) ?? 1];
  const labels = axisLabels(ticks);
  const left = leftMargin(labels);
  const [start, end] = [points[0]!.time, points.at(-1)!.time];
  const plotWidth = width - left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (time: number) => left + (end === start ? plotWidth : ((time - start) / (end - start)) * plotWidth);
  const y = (value: number) => MARGIN.top + plotHeight - ((value - low) / (high - low || 1)) * plotHeight;
  // A balance holds until the next transaction: steps, not slopes.
  const path = points
    .map((point, i) => {
      const here = `${x(point.time).toFixed(1)},${y(values[i]!).toFixed(1)}`;
      return i === 0 ? `M${here}` : `H${x(point.time).toFixed(1)}V${y(values[i]!).toFixed(1)}`;
    })
    .join('');
  const timeTicks = [start, (start + end) / 2, end];
  const timeLabel = timeAxisLabel(start, end);
  const point = selected !== null ? points[selected] : undefined;

  function pointer(event: PointerEvent<SVGSVGElement>) {
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = (event.clientX - box.left - left) / plotWidth;
    onSelect(nearestPoint(points, start + Math.min(1, Math.max(0, fraction)) * (end - start)));
  }

  function key(event: KeyboardEvent<SVGSVGElement>) {
    const step = { ArrowLeft: -1, ArrowRight: 1, Home: -points.length, End: points.length }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    const from = selected ?? (step < 0 ? points.length : -1);
    onSelect(Math.min(points.length - 1, Math.max(0, from + step)));
  }

  return (
    <svg
      width={width}
      height={HEIGHT}
      viewBox={`0 0 ${width} ${HEIGHT}`}
      role="img"
      aria-label={label}
      tabIndex={0}
      onPointerMove={pointer}
      onPointerDown={pointer}
      onPointerLeave={() => onSelect(null)}
      onKeyDown={key}
    >
      {ticks.map((tick, i) => (
        <g key={tick} className="chart-grid">
          <line x1={left} x2={width - MARGIN.right} y1={y(tick)} y2={y(tick)} />
          <text x={left - 6} y={y(tick)} textAnchor="end" dominantBaseline="middle">
            {labels[i]}
          </text>
        </g>
      ))}
      {timeTicks.map((tick, i) => {
        // A short history gives the same minute three times: each label once.
        const text = timeLabel(tick);
        if (timeTicks.slice(0, i).some((earlier) => timeLabel(earlier) === text)) return null;
        return (
          <text
            key={i}
            className="chart-axis"
            x={x(tick)}
            y={HEIGHT - 6}
            textAnchor={i === 0 ? 'start' : i === 2 ? 'end' : 'middle'}
          >
            {text}
          </text>
        );
      })}
      <path d={path} className="chart-line" />
      {point && (
        <g className="chart-marker">
          <line x1={x(point.time)} x2={x(point.time)} y1={MARGIN.top} y2={MARGIN.top + plotHeight} />
          <circle cx={x(point.time)} cy={y(stxForChart(point.balance))} r={4.5} />
        </g>
      )}
    </svg>
  );
}
