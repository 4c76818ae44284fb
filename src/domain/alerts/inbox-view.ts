import type { Network } from '../network.ts';
import { groupByDay } from '../text/day-groups.ts';
import type { TimeFormat } from '../text/time-text.ts';

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

/**
 * The addresses the address filter offers, in an order that holds still as alerts arrive: those with alerts in the
 * watch list's order, then any no longer watched, by address.
 */
export function filterAddresses(alerted: Iterable<string>, watched: readonly string[]): string[] {
  const have = new Set(alerted);
  const listed = watched.filter((principal) => have.has(principal));
  const gone = [...have].filter((principal) => !watched.includes(principal)).sort();
  return [...listed, ...gone];
}

/**
 * The unread rows of the filter's address and network, whether all or only unread are listed: what its "Unread (N)"
 * counts and what marking them read marks. With every address, every unread row.
 */
export const unreadUnder = <T extends Listed>(entries: readonly T[], filter: InboxFilter): T[] =>
  filterInbox(entries, { ...filter, unreadOnly: true });

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
 * Newest-first entries as days, one group per address inside a day (in the order of its newest alert), a burst as
 * one block: the view grouped by address. In time order (the default) a day is one list (groupByDay), each row
 * naming its address.
 */
export function groupByAddress<T extends Listed>(
  entries: readonly T[],
  nowMs: number,
  format: TimeFormat = {},
): InboxDay<T>[] {
  return groupByDay(entries, (entry) => entry.at, nowMs, format).map(({ key, label, items }) => {
    const runs = new Map<string, T[]>();
    for (const entry of items) {
      const id = `${entry.network}:${entry.principal}`;
      const run = runs.get(id);
      if (run) run.push(entry);
      else runs.set(id, [entry]);
    }
    return {
      key,
      label,
      addresses: [...runs.values()].map((run) => ({
        principal: run[0]!.principal,
        network: run[0]!.network,
        entries: run,
        unread: run.filter((entry) => !entry.read).length,
      })),
    };
  });
}
