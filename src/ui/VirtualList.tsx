import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';

interface Props<T> {
  readonly items: readonly T[];
  readonly keyOf: (item: T) => string;
  /** One row: an `li` carrying its key in the data attribute `dataKey` names (`data-tx` for `tx`). */
  readonly render: (item: T) => ReactNode;
  readonly dataKey: string;
  /** A row's height before it was measured, in CSS pixels. */
  readonly estimate: number;
  /** Called when the last rows come within a screen of the viewport (to read more). */
  readonly onNearEnd?: () => void;
  readonly className?: string;
  readonly label?: string;
}

/** Rows drawn beyond each edge of the screen, so that a fast flick does not show blank space for a frame. */
const OVERSCAN = 6;

/** The row at height `y`: a binary search over the rows' tops. */
export function indexAt(tops: readonly number[], y: number): number {
  let low = 0;
  let high = tops.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (tops[mid]! <= y) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * A list that renders only the rows near the screen, in the page's own scroll (a phone scrolls the page, not a box):
 * padding above and below stands for the rest, at their measured heights (an estimate until a row was seen). Ten
 * thousand rows cost a few dozen elements.
 */
export function VirtualList<T>({ items, keyOf, render, dataKey, estimate, onNearEnd, className, label }: Props<T>) {
  const list = useRef<HTMLOListElement>(null);
  const [heights, setHeights] = useState<ReadonlyMap<string, number>>(() => new Map());
  const [view, setView] = useState(() => ({ top: 0, bottom: typeof innerHeight === 'number' ? innerHeight : 800 }));
  const tops = useMemo(() => {
    const result = new Array<number>(items.length + 1);
    result[0] = 0;
    for (let i = 0; i < items.length; i++) result[i + 1] = result[i]! + (heights.get(keyOf(items[i]!)) ?? estimate);
    return result;
  }, [items, keyOf, estimate, heights]);

  const follow = useCallback(() => {
    const element = list.current;
    if (!element) return;
    const top = -element.getBoundingClientRect().top;
    setView((was) =>
      Math.abs(was.top - top) < estimate / 2 && was.bottom - was.top === innerHeight
        ? was
        : { top, bottom: top + innerHeight },
    );
  }, [estimate]);

  useEffect(() => {
    const frame = requestAnimationFrame(follow);
    addEventListener('scroll', follow, { passive: true });
    addEventListener('resize', follow);
    return () => {
      cancelAnimationFrame(frame);
      removeEventListener('scroll', follow);
      removeEventListener('resize', follow);
    };
  }, [follow]);

  // Rows change height as they open or wrap: each one drawn is measured, and again whenever it resizes.
  const observer = useRef<ResizeObserver | null>(null);
  const observed = useRef(new Set<Element>());
  useEffect(() => {
    if (typeof ResizeObserver === 'undefined') return;
    const watching = observed.current;
    observer.current = new ResizeObserver((entries) => {
      const learnt: [string, number][] = [];
      for (const entry of entries) {
        const key = (entry.target as HTMLElement).dataset[dataKey];
        const height = (entry.target as HTMLElement).offsetHeight;
        if (key !== undefined && height > 0) learnt.push([key, height]);
      }
      setHeights((was) =>
        learnt.every(([key, height]) => was.get(key) === height) ? was : new Map([...was, ...learnt]),
      );
    });
    return () => {
      observer.current?.disconnect();
      watching.clear();
    };
  }, [dataKey]);
  useEffect(() => {
    const element = list.current;
    const resize = observer.current;
    if (!element || !resize) return;
    const now = new Set(element.children);
    for (const child of observed.current) if (!now.has(child)) resize.unobserve(child);
    for (const child of now) if (!observed.current.has(child)) resize.observe(child);
    observed.current = now;
  });

  const start = Math.max(0, indexAt(tops, view.top) - OVERSCAN);
  const end = Math.min(items.length, indexAt(tops, view.bottom) + 1 + OVERSCAN);
  const total = tops[items.length]!;
  const nearEnd = end >= items.length && total - view.bottom < view.bottom - view.top;
  useEffect(() => {
    if (nearEnd) onNearEnd?.();
  }, [nearEnd, items.length, onNearEnd]);

  return (
    <ol
      ref={list}
      className={className}
      aria-label={label}
      style={{ paddingTop: tops[start], paddingBottom: total - tops[end]! }}
    >
      {items.slice(start, end).map(render)}
    </ol>
  );
}
