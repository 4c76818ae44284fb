import { isPurpose, PURPOSES, type Purpose } from './disclosure.ts';
import { isRecord } from '../is-record.ts';

/**
 * The record of one host: when the app contacted it, what for, and which watched addresses it was told (first and
 * last time, how many requests). Bounded: at most `MAX_ADDRESSES_PER_HOST` addresses, the most recently told kept.
 */
export interface Sighting {
  /** Epoch ms. */
  readonly first: number;
  readonly last: number;
  readonly count: number;
}

export interface HostRecord {
  /** `https://host[:port]`. */
  readonly origin: string;
  /** Every request it answered and socket message sent to it; null when none ever reached it. */
  readonly contact: Sighting | null;
  /**
   * Requests tried that got no answer (no network, a name that did not resolve, a refused connection, the page's
   * policy refused it): as far as the browser can tell they never reached the host, so they told it nothing.
   */
  readonly unanswered?: Sighting;
  /**
   * Requests the app stopped waiting for (a timeout): unanswered, but they may have reached the host, so the addresses
   * they named are among those it could have learned.
   */
  readonly gaveUp?: Sighting;
  readonly purposes: readonly Purpose[];
  /** By principal. */
  readonly addresses: Readonly<Record<string, Sighting>>;
  /** Addresses told but no longer kept in the record (past the bound). */
  readonly dropped: number;
}

export const MAX_ADDRESSES_PER_HOST = 2000;
/** Hosts kept: the nodes, a relay, and the custom nodes tried; the least recently contacted go first. */
export const MAX_HOSTS = 50;

/** What came of a message: answered, failed without reaching the host, or given up on (it may have reached it). */
export type Outcome = 'answered' | 'unanswered' | 'gave-up';

/**
 * One message to `origin` at `at`, naming `principals`, as a record (to merge into what is known); one that got no
 * answer counts as tried, naming nothing; one given up on names what it named, as it may have reached the host.
 */
export function sightingRecord(
  origin: string,
  purpose: Purpose,
  principals: readonly string[],
  at: number,
  outcome: Outcome = 'answered',
): HostRecord {
  const once: Sighting = { first: at, last: at, count: 1 };
  if (outcome === 'unanswered')
    return { origin, contact: null, unanswered: once, purposes: [purpose], addresses: {}, dropped: 0 };
  return {
    origin,
    contact: outcome === 'answered' ? once : null,
    ...(outcome === 'gave-up' ? { gaveUp: once } : {}),
    purposes: [purpose],
    addresses: Object.fromEntries(principals.map((principal) => [principal, once])),
    dropped: 0,
  };
}

/** The last time the app tried the host, answered or not. */
export const lastTried = (record: HostRecord): number =>
  Math.max(record.contact?.last ?? 0, record.unanswered?.last ?? 0, record.gaveUp?.last ?? 0);

export function mergeSightings(a: Sighting | undefined, b: Sighting | undefined): Sighting;
export function mergeSightings(a: Sighting | null | undefined, b: Sighting | null | undefined): Sighting | null;
export function mergeSightings(a: Sighting | null | undefined, b: Sighting | null | undefined): Sighting | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return { first: Math.min(a.first, b.first), last: Math.max(a.last, b.last), count: a.count + b.count };
}

/** Two records of the same host as one: earliest first, latest last, counts added, purposes and addresses united. */
export function mergeHostRecords(a: HostRecord | undefined, b: HostRecord): HostRecord {
  if (!a) return bounded(b);
  const addresses: Record<string, Sighting> = { ...a.addresses };
  for (const [principal, sighting] of Object.entries(b.addresses))
    addresses[principal] = mergeSightings(addresses[principal], sighting);
  const unanswered = mergeSightings(a.unanswered, b.unanswered);
  const gaveUp = mergeSightings(a.gaveUp, b.gaveUp);
  return bounded({
    origin: a.origin,
    contact: mergeSightings(a.contact, b.contact),
    ...(unanswered ? { unanswered } : {}),
    ...(gaveUp ? { gaveUp } : {}),
    purposes: PURPOSES.filter((purpose) => a.purposes.includes(purpose) || b.purposes.includes(purpose)),
    addresses,
    dropped: a.dropped + b.dropped,
  });
}

/** Records by origin, merged: `more` folded into `known`. */
export function mergeRecords(
  known: ReadonlyMap<string, HostRecord>,
  more: Iterable<HostRecord>,
): Map<string, HostRecord> {
  const merged = new Map(known);
  for (const record of more) merged.set(record.origin, mergeHostRecords(merged.get(record.origin), record));
  return merged;
}

function bounded(record: HostRecord): HostRecord {
  const entries = Object.entries(record.addresses);
  if (entries.length <= MAX_ADDRESSES_PER_HOST) return record;
  const kept = entries.sort(([, a], [, b]) => b.last - a.last).slice(0, MAX_ADDRESSES_PER_HOST);
  return {
    ...record,
    addresses: Object.fromEntries(kept),
    dropped: record.dropped + entries.length - kept.length,
  };
}

/** The hosts to keep: at most `MAX_HOSTS`, the most recently contacted; the others' origins are returned to forget. */
export function hostsToForget(records: Iterable<HostRecord>): string[] {
  return [...records]
    .sort((a, b) => lastTried(b) - lastTried(a))
    .slice(MAX_HOSTS)
    .map((record) => record.origin);
}

/** Newest contact first. */
export const byLastContact = (records: Iterable<HostRecord>): HostRecord[] =>
  [...records].sort((a, b) => lastTried(b) - lastTried(a) || a.origin.localeCompare(b.origin));

const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value) && value >= 0;

function readSighting(value: unknown): Sighting | null {
  if (!isRecord(value)) return null;
  const { first, last, count } = value;
  if (!isTime(first) || !isTime(last) || !Number.isSafeInteger(count) || (count as number) < 1) return null;
  return { first, last, count: count as number };
}

/** A stored record, checked field by field; null when it is not one (an unreadable address alone is left out). */
export function readHostRecord(value: unknown): HostRecord | null {
  if (!isRecord(value)) return null;
  const contact = readSighting(value['contact']);
  const unanswered = readSighting(value['unanswered']);
  const gaveUp = readSighting(value['gaveUp']);
  if (typeof value['origin'] !== 'string' || (!contact && !unanswered && !gaveUp)) return null;
  const purposes = Array.isArray(value['purposes']) ? value['purposes'].filter(isPurpose) : [];
  const addresses: Record<string, Sighting> = {};
  const stored = value['addresses'];
  if (isRecord(stored))
    for (const [principal, sighting] of Object.entries(stored)) {
      const read = readSighting(sighting);
      if (read) addresses[principal] = read;
    }
  const dropped = Number.isSafeInteger(value['dropped']) ? Math.max(0, value['dropped'] as number) : 0;
  return {
    origin: value['origin'],
    contact,
    ...(unanswered ? { unanswered } : {}),
    ...(gaveUp ? { gaveUp } : {}),
    purposes,
    addresses,
    dropped,
  };
}
