import { readAlertFacts } from './alert-facts-read.ts';
import type { InboxEntry } from './inbox.ts';
import type { Activity } from '../state/snapshot.ts';
import { partiesOf, plainTransfer } from './transfer-pair.ts';

/**
 * Both sides of a transaction between two watched addresses, each its own entry in storage, listed as one: a plain
 * transfer from its sender to its recipient, any other transaction from its signer's side to the other.
 */
export interface PairedEntries {
  readonly from: InboxEntry;
  readonly to: InboxEntry;
  /** Whose facts tell it: they hold only that address's own movements, so its words are read from that side. */
  readonly readFrom: InboxEntry;
  readonly activity: Activity;
}

/**
 * The entries in their order, the two sides of a transaction between two watched addresses as one item at the place
 * of the newer side. Both sides must be in the inbox, and either's facts must name the other; a plain transfer pairs
 * with the other address it moved to or from, unless what that side tells disagrees (another sender or recipient). A
 * side whose facts do not tell it (a revert recalled from words alone) joins the side that does. Pairing needs no
 * labels: an address with an entry was watched when the alert was raised.
 */
export function pairUp(entries: readonly InboxEntry[]): (InboxEntry | PairedEntries)[] {
  const byTx = new Map<string, InboxEntry[]>();
  for (const entry of entries) {
    const key = `${entry.network}:${entry.txId}`;
    if (entry.txId) byTx.set(key, [...(byTx.get(key) ?? []), entry]);
  }
  const pairOf = new Map<InboxEntry, PairedEntries>();
  for (const group of byTx.values()) {
    if (group.length < 2) continue;
    for (const entry of group) {
      const pair = pairWithin(group, entry, pairOf);
      if (pair) pairOf.set(pair.from, pair).set(pair.to, pair);
    }
  }
  const listed = new Set<InboxEntry | PairedEntries>();
  for (const entry of entries) listed.add(pairOf.get(entry) ?? entry);
  return [...listed];
}

/** The entry's other side among the group's entries not paired yet, if any. */
function pairWithin(
  group: readonly InboxEntry[],
  entry: InboxEntry,
  taken: ReadonlyMap<InboxEntry, PairedEntries>,
): PairedEntries | null {
  const activity = taken.has(entry) ? null : readActivity(entry);
  if (!activity) return null;
  const free = group.filter((candidate) => candidate !== entry && !taken.has(candidate));
  const moved = transferOf(entry);
  const direct =
    moved && free.find(({ principal }) => principal === (moved.from === entry.principal ? moved.to : moved.from));
  const theirs = direct && transferOf(direct);
  const agreed = direct && (!theirs || (theirs.from === moved.from && theirs.to === moved.to)) ? direct : undefined;
  // Any other transaction (a call of a watched contract, pending or failed; a mint to a watched address; a failed
  // transfer), as either side's facts name the other.
  const parties = partiesOf(activity, entry.principal);
  const other =
    agreed ??
    free.find(
      (candidate) => parties.includes(candidate.principal) || partiesOfEntry(candidate).includes(entry.principal),
    );
  if (!other) return null;
  const [from, to] = other.principal === (agreed ? moved!.from : activity.sender) ? [other, entry] : [entry, other];
  // The newer side's reading where it tells the same: its state's facts are the latest (a mined fee, a replacement).
  const readFrom = other.at > entry.at && (agreed ? theirs : readActivity(other)) ? other : entry;
  return { from, to, readFrom, activity: readActivity(readFrom)! };
}

/** A plain transfer between an entry's address and one other address, as that entry's facts tell it. */
function transferOf(entry: InboxEntry): { from: string; to: string } | null {
  const activity = readActivity(entry);
  return activity && plainTransfer(activity, entry.principal);
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
