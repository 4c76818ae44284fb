export type Level = 'info' | 'warn' | 'error';

export type Fields = Readonly<Record<string, string | number | boolean | null>>;

export interface Log {
  info(event: string, fields?: Fields): void;
  warn(event: string, fields?: Fields): void;
  error(event: string, fields?: Fields): void;
  /** Writes the counts of repeats still held back (on stop). */
  flush(): void;
}

export interface LogOptions {
  /** Where each JSON line goes (stderr by default). */
  readonly write?: (line: string) => void;
  readonly now?: () => number;
  /** Within this window a repeat of the same line is counted, not written. */
  readonly windowMs?: number;
}

interface Held {
  readonly level: Level;
  readonly event: string;
  readonly firstAt: number;
  /** The newest repeat's fields and time: what the summary line tells. */
  last: { readonly fields: Fields; readonly at: number } | null;
  repeats: number;
}

/**
 * One JSON line per event worth an operator's attention: `{ at, level, event, …fields }`. An outage makes the same
 * line by the thousand (one per failed write, per refused push): the first is written at once, the repeats within
 * the window are counted and written as one line with `repeats` when the window ends. Numbers in a message do not
 * make it another line ("3 of 50 addresses…" and "4 of 50…" are one kind), so the repeats' fields may differ from
 * the first's in their numbers: the summary carries the last repeat's fields (the first's are on its own line, and
 * the newest figures are the ones an operator acts on), with `firstAt` (the first line's time) and `lastAt` (the
 * last repeat's): the span the repeats cover, not when the window happened to close.
 */
export function createLog(options: LogOptions = {}): Log {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const windowMs = options.windowMs ?? 60_000;
  const held = new Map<string, Held>();
  let timer: ReturnType<typeof setTimeout> | null = null;

  const line = (level: Level, event: string, fields: Fields, extra: Fields = {}) =>
    write(JSON.stringify({ at: new Date(now()).toISOString(), level, event, ...fields, ...extra }));

  const release = (all: boolean) => {
    const at = now();
    for (const [key, entry] of held)
      if (all || at - entry.firstAt >= windowMs) {
        held.delete(key);
        if (entry.last)
          line(entry.level, entry.event, entry.last.fields, {
            repeats: entry.repeats,
            firstAt: new Date(entry.firstAt).toISOString(),
            lastAt: new Date(entry.last.at).toISOString(),
          });
      }
    if (timer) clearTimeout(timer);
    timer = null;
    if (held.size > 0) {
      timer = setTimeout(() => release(false), windowMs);
      timer.unref?.();
    }
  };

  const emit =
    (level: Level) =>
    (event: string, fields: Fields = {}) => {
      const key = `${level}\n${event}\n${JSON.stringify(fields).replace(/\d+/g, '#')}`;
      const entry = held.get(key);
      if (entry && now() - entry.firstAt < windowMs) {
        entry.repeats += 1;
        entry.last = { fields, at: now() };
        return;
      }
      if (entry) release(false);
      held.set(key, { level, event, firstAt: now(), last: null, repeats: 0 });
      line(level, event, fields);
      if (!timer) {
        timer = setTimeout(() => release(false), windowMs);
        timer.unref?.();
      }
    };

  return { info: emit('info'), warn: emit('warn'), error: emit('error'), flush: () => release(true) };
}

/** The engine's `report(problem)` as a warning line (the monitor and the stores speak in sentences). */
export const reportTo =
  (log: Log) =>
  (problem: string): void =>
    log.warn('problem', { message: problem });
