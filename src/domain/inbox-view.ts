import type { InboxEntry } from './inbox.ts';
import type { Network } from './network.ts';
import { dayLabel } from './day-groups.ts';
import { dayKey, type TimeFormat } from './time-text.ts';

export interface InboxFilter {
  readonly unreadOnly: boolean;
  /** A watched principal, or all. */
  readonly principal: string | 'all';
  readonly network: Network | 'all';
}

export const ALL_ALERTS: InboxFilter = { unreadOnly: false, principal: 'all', network: 'all' };

export function filterInbox(entries: readonly InboxEntry[], filter: InboxFilter): InboxEntry[] {
  return entries.filter(
    (entry) =>
      (!filter.unreadOnly || !entry.read) &&
      (filter.principal === 'all' || entry.principal === filter.principal) &&
      (filter.network === 'all' || entry.network === filter.network),
  );
}

export interface AddressRun {
  readonly principal: string;
  readonly network: Network;
  readonly entries: readonly InboxEntry[];
  readonly unread: number;
}

export interface InboxDay {
  readonly key: string;
  readonly label: string;
  readonly addresses: readonly AddressRun[];
}

/**
 * Newest-first entries as days, and inside each day one group per address (in the order of its newest alert): a
 * burst on one address reads as one block instead of fifty lines.
 */
export function groupInbox(entries: readonly InboxEntry[], nowMs: number, format: TimeFormat = {}): InboxDay[] {
  const days: { key: string; label: string; byAddress: Map<string, InboxEntry[]> }[] = [];
  for (const entry of entries) {
    const key = dayKey(entry.at, format);
    let day = days.at(-1);
    if (day?.key !== key) {
      day = { key, label: dayLabel(entry.at, nowMs, format), byAddress: new Map() };
      days.push(day);
    }
    const id = `${entry.network}:${entry.principal}`;
    const run = day.byAddress.get(id);
    if (run) run.push(entry);
    else day.byAddress.set(id, [entry]);
  }
  return days.map(({ key, label, byAddress }) => ({
    key,
    label,
    addresses: [...byAddress.values()].map((run) => ({
      principal: run[0]!.principal,
      network: run[0]!.network,
      entries: run,
      unread: run.filter((entry) => !entry.read).length,
    })),
  }));
}
