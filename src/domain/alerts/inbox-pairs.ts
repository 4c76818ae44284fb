import { readAlertFacts } from './alert-facts-read.ts';
import type { InboxEntry } from './inbox.ts';
import type { Activity } from '../state/snapshot.ts';
import { txEffect } from '../state/tx-effect.ts';

/**
 * A plain transfer between an entry's address and one other address, as that entry's facts tell it; or a call, from
 * its caller to the contract called.
 */
export interface PlainTransfer {
  readonly from: string;
  readonly to: string;
  /** Whose facts told it: they hold only that address's own movements, so its words are read from that side. */
  readonly readFrom: InboxEntry;
  readonly activity: Activity;
}

/** Both sides of a transfer or a call between two watched addresses, each its own entry in storage, listed as one. */
export interface PairedEntries {
  readonly from: InboxEntry;
  readonly to: InboxEntry;
  readonly transfer: PlainTransfer;
}

// Entries are never changed in place (a new state is a new object): what one tells is read once.
const told = new WeakMap<InboxEntry, PlainTransfer | null>();

export function transferOf(entry: InboxEntry): PlainTransfer | null {
  let transfer = told.get(entry);
  if (transfer === undefined) {
    transfer = readTransfer(entry);
    told.set(entry, transfer);
  }
  return transfer;
}

function readTransfer(entry: InboxEntry): PlainTransfer | null {
  if (!entry.txId || !entry.facts?.activity) return null;
  const activity = readActivity(entry);
  if (!activity) return null;
  const [moved, ...others] = txEffect(activity, entry.principal).effects;
  if (!moved || others.length > 0 || moved.how !== 'transfer' || moved.counterparties.length !== 1) return null;
  const other = moved.counterparties[0]!;
  if (other === entry.principal) return null;
  const [from, to] = moved.net < 0n ? [entry.principal, other] : [other, entry.principal];
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
      const pair = pairWithin(group, entry, pairOf) ?? callWithin(group, entry, pairOf);
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
 * A call of a watched contract by a watched address that moved nothing between them (pending, failed, or paying a
 * third party): its caller's and its contract's entries, as one.
 */
function callWithin(
  group: readonly InboxEntry[],
  entry: InboxEntry,
  taken: ReadonlyMap<InboxEntry, PairedEntries>,
): PairedEntries | null {
  const activity = !taken.has(entry) && entry.facts?.activity ? readActivity(entry) : null;
  const call = activity?.contractCall;
  if (!activity?.sender || !call || ![activity.sender, call.contractId].includes(entry.principal)) return null;
  const otherAddress = entry.principal === activity.sender ? call.contractId : activity.sender;
  const other = group.find((candidate) => candidate.principal === otherAddress && !taken.has(candidate));
  if (!other) return null;
  const [from, to] = entry.principal === activity.sender ? [entry, other] : [other, entry];
  const readFrom = other.at > entry.at && other.facts?.activity ? other : entry;
  const read = readFrom === entry ? activity : (readActivity(other) ?? activity);
  return { from, to, transfer: { from: activity.sender, to: call.contractId, readFrom, activity: read } };
}

function readActivity(entry: InboxEntry): Activity | null {
  const facts = entry.facts ? readAlertFacts(entry.facts) : null;
  return facts?.ok ? facts.value.activity : null;
}

/** How many unread rows the inbox lists: both sides of a transfer between two watched addresses count once. */
export const unreadRows = (entries: readonly InboxEntry[]): number =>
  pairUp(entries.filter((entry) => !entry.read)).length;
