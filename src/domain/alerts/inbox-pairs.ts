import { readAlertFacts } from './alert-facts-read.ts';
import type { InboxEntry } from './inbox.ts';
import type { Activity } from '../state/snapshot.ts';
import { partiesOf, plainTransfer } from './transfer-pair.ts';

/**
 * A plain transfer between an entry's address and one other address, as that entry's facts tell it; or any other
 * transaction between two watched addresses, from its signer's side to the other.
 */
export interface PlainTransfer {
  readonly from: string;
  readonly to: string;
  /** Whose facts told it: they hold only that address's own movements, so its words are read from that side. */
  readonly readFrom: InboxEntry;
  readonly activity: Activity;
}

/** Both sides of a transaction between two watched addresses, each its own entry in storage, listed as one. */
export interface PairedEntries {
  readonly from: InboxEntry;
  readonly to: InboxEntry;
  readonly transfer: PlainTransfer;
}

function transferOf(entry: InboxEntry): PlainTransfer | null {
  const activity = readActivity(entry);
  const transfer = activity && plainTransfer(activity, entry.principal);
  if (!transfer) return null;
  const [from, to] = transfer.moved.net < 0n ? [entry.principal, transfer.other] : [transfer.other, entry.principal];
  return { from, to, readFrom: entry, activity };
}

/**
 * The entries in their order, the two sides of a transfer between two watched addresses as one item at the place of
 * the newer side. Both sides must be in the inbox, and what either tells must agree (same sender and recipient); a
 * side whose facts do not tell it (a revert recalled from words alone) joins the side that does. Pairing needs no
 * labels: an address with an entry was watched when the alert was raised.
 */
export function pairUp(entries: readonly InboxEntry[]): (InboxEntry | PairedEntries)[] {
  const byTx = new Map<string, InboxEntry[]>();
  for (const entry of entries) {
    if (!entry.txId) continue;
    const key = `${entry.network}:${entry.txId}`;
    const group = byTx.get(key);
    if (group) group.push(entry);
    else byTx.set(key, [entry]);
  }
  const pairOf = new Map<InboxEntry, PairedEntries>();
  for (const group of byTx.values()) {
    if (group.length < 2) continue;
    for (const entry of group) {
      const pair = pairWithin(group, entry, pairOf) ?? sharedWithin(group, entry, pairOf);
      if (pair) pairOf.set(pair.from, pair).set(pair.to, pair);
    }
  }
  const listed: (InboxEntry | PairedEntries)[] = [];
  const placed = new Set<PairedEntries>();
  for (const entry of entries) {
    const pair = pairOf.get(entry);
    if (!pair) listed.push(entry);
    else if (!placed.has(pair)) {
      placed.add(pair);
      listed.push(pair);
    }
  }
  return listed;
}

function pairWithin(
  group: readonly InboxEntry[],
  entry: InboxEntry,
  taken: ReadonlyMap<InboxEntry, PairedEntries>,
): PairedEntries | null {
  const transfer = transferOf(entry);
  if (!transfer || taken.has(entry)) return null;
  const otherAddress = entry.principal === transfer.from ? transfer.to : transfer.from;
  const other = group.find((candidate) => candidate.principal === otherAddress && !taken.has(candidate));
  if (!other) return null;
  const theirs = transferOf(other);
  if (theirs && (theirs.from !== transfer.from || theirs.to !== transfer.to)) return null;
  const [from, to] = entry.principal === transfer.from ? [entry, other] : [other, entry];
  // The newer side's reading: its state's facts are the latest (a mined fee, a replacement).
  const newer = other.at > entry.at && theirs ? theirs : transfer;
  return { from, to, transfer: newer };
}

/**
 * Any other transaction between the entry's address and another watched one, as either side's facts name the other
 * (a call of a watched contract, pending or failed; a mint to a watched address; a failed transfer): the signer's
 * entry first.
 */
function sharedWithin(
  group: readonly InboxEntry[],
  entry: InboxEntry,
  taken: ReadonlyMap<InboxEntry, PairedEntries>,
): PairedEntries | null {
  const activity = taken.has(entry) ? null : readActivity(entry);
  if (!activity) return null;
  const parties = new Set(partiesOf(activity, entry.principal));
  const other = group.find(
    (candidate) =>
      candidate !== entry &&
      !taken.has(candidate) &&
      (parties.has(candidate.principal) || partiesOfEntry(candidate).includes(entry.principal)),
  );
  if (!other) return null;
  const [from, to] = other.principal === activity.sender ? [other, entry] : [entry, other];
  const readFrom = other.at > entry.at && readActivity(other) ? other : entry;
  const read = readFrom === entry ? activity : readActivity(other)!;
  return { from, to, transfer: { from: from.principal, to: to.principal, readFrom, activity: read } };
}

const partiesOfEntry = (entry: InboxEntry): string[] => {
  const activity = readActivity(entry);
  return activity ? partiesOf(activity, entry.principal) : [];
};

// Entries are never changed in place: what one's facts tell is read once.
const activities = new WeakMap<InboxEntry, Activity | null>();

function readActivity(entry: InboxEntry): Activity | null {
  let activity = activities.get(entry);
  if (activity === undefined) {
    const facts = entry.txId && entry.facts?.activity ? readAlertFacts(entry.facts) : null;
    activity = facts?.ok ? facts.value.activity : null;
    activities.set(entry, activity);
  }
  return activity;
}

/** How many unread rows the inbox lists: both sides of a transfer between two watched addresses count once. */
export const unreadRows = (entries: readonly InboxEntry[]): number =>
  pairUp(entries.filter((entry) => !entry.read)).length;
