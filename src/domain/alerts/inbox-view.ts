import type { Network } from '../network.ts';
import { dayLabel } from '../text/day-groups.ts';
import { dayKey, type TimeFormat } from '../text/time-text.ts';

export interface InboxFilter {
  readonly unreadOnly: boolean;
  /** A watched principal, or all. */
  readonly principal: string | 'all';
  readonly network: Network | 'all';
}

export const ALL_ALERTS: InboxFilter = { unreadOnly: false, principal: 'all', network: 'all' };

/** What the list needs of an alert or a row (inbox-rows.ts): a row of a pair is about two addresses. */
export interface Listed {
  readonly id: string;
  readonly network: Network;
  readonly principal: string;
  readonly principals?: readonly string[];
  readonly at: number;
  readonly read: boolean;
}

export function filterInbox<T extends Listed>(entries: readonly T[], filter: InboxFilter): T[] {
  return entries.filter(
    (entry) =>
      (!filter.unreadOnly || !entry.read) &&
      (filter.principal === 'all' || (entry.principals ?? [entry.principal]).includes(filter.principal)) &&
      (filter.network === 'all' || entry.network === filter.network),
  );
}

export interface AddressRun<T extends Listed = Listed> {
  readonly principal: string;
  readonly network: Network;
  readonly entries: readonly T[];
  readonly unread: number;
}

export interface InboxDay<T extends Listed = Listed> {
  readonly key: string;
  readonly label: string;
  readonly addresses: readonly AddressRun<T>[];
}

/**
 * Newest-first entries as days. Chronological (the default): inside a day, alerts stay in time order, consecutive
 * ones of the same address sharing one heading, so one busy address cannot push the others below the fold.
 * `byAddress`: one group per address inside a day (in the order of its newest alert), a burst as one block.
 */
export function groupInbox<T extends Listed>(
  entries: readonly T[],
  nowMs: number,
  format: TimeFormat = {},
  byAddress = false,
): InboxDay<T>[] {
  const days: { key: string; label: string; runs: { id: string; entries: T[] }[] }[] = [];
  for (const entry of entries) {
    const key = dayKey(entry.at, format);
    let day = days.at(-1);
    if (day?.key !== key) {
      day = { key, label: dayLabel(entry.at, nowMs, format), runs: [] };
      days.push(day);
    }
    const id = `${entry.network}:${entry.principal}`;
    const run = byAddress ? day.runs.find((candidate) => candidate.id === id) : day.runs.at(-1);
    if (run?.id === id) run.entries.push(entry);
    else day.runs.push({ id, entries: [entry] });
  }
  return days.map(({ key, label, runs }) => ({
    key,
    label,
    addresses: runs.map(({ entries: run }) => ({
      principal: run[0]!.principal,
      network: run[0]!.network,
      entries: run,
      unread: run.filter((entry) => !entry.read).length,
    })),
  }));
}
