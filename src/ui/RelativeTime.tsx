import { useState } from 'react';
import { exactTime, relativeTime } from '../domain/text/time-text.ts';

/**
 * "3 min ago", with the exact time on hover (title) and on a long press (a touch screen's context menu), which
 * shows it in place until the next press.
 */
export function RelativeTime({ ms, now, prefix = '' }: { ms: number; now: number; prefix?: string }) {
  const [exact, setExact] = useState(false);
  const full = exactTime(ms);
  return (
    <time
      dateTime={new Date(ms).toISOString()}
      title={full}
      className="relative-time"
      onContextMenu={(event) => {
        event.preventDefault();
        setExact(!exact);
      }}
    >
      {prefix}
      {exact ? full : relativeTime(ms, now)}
    </time>
  );
}
