import { knownName } from './entry-name.ts';
import type { Principal } from '../address/address.ts';
import { err, ok, type Result } from '../result.ts';
import type { WatchEntry } from './watch-entry.ts';

/** The watch list in the user's order. Every operation returns a new list and leaves its input untouched. */
export type WatchList = readonly WatchEntry[];

export interface Duplicate {
  readonly kind: 'duplicate';
  readonly existing: WatchEntry;
  /** 1-based position in the list, as the user sees it. */
  readonly position: number;
}

/** A removed entry and where it stood, so that undo puts it back in place. */
export interface Removal {
  readonly entry: WatchEntry;
  readonly index: number;
}

export const indexOfPrincipal = (list: WatchList, principal: string): number =>
  list.findIndex((entry) => entry.principal === principal);

/** The entry for a parsed principal; `label` must already be normalised. */
export const newEntry = (principal: Principal, label: string, now: number, name?: string): WatchEntry => ({
  principal: principal.principal,
  network: principal.network,
  kind: principal.kind,
  label,
  ...(name ? { name } : {}),
  addedAt: now,
});

/** New entries go to the top, where the user sees them. */
export function addEntry(
  list: WatchList,
  principal: Principal,
  label: string,
  now: number,
  name?: string,
): Result<WatchList, Duplicate> {
  const index = indexOfPrincipal(list, principal.principal);
  const existing = list[index];
  if (existing) return err({ kind: 'duplicate', existing, position: index + 1 });
  return ok([newEntry(principal, label, now, name), ...list]);
}

/** `learned`: the BNS name learned for it since it was added, by which the list names an entry with no label. */
export function describeDuplicate({ existing, position }: Duplicate, learned: string | null = null): string {
  const known = knownName(existing, learned);
  const name = known ? `“${known}”` : 'an unlabelled entry';
  return `You already watch this address: it is ${name}, number ${position} in your list.`;
}

export function renameEntry(list: WatchList, principal: string, label: string): WatchList {
  return list.map((entry) => (entry.principal === principal && entry.label !== label ? { ...entry, label } : entry));
}

export function removeEntry(list: WatchList, principal: string): { list: WatchList; removal: Removal } | null {
  const index = indexOfPrincipal(list, principal);
  const entry = list[index];
  if (!entry) return null;
  return { list: list.filter((_, i) => i !== index), removal: { entry, index } };
}

/** Puts a removed entry back where it was; a no-op if the principal has been added again meanwhile. */
export function restoreEntry(list: WatchList, { entry, index }: Removal): WatchList {
  if (indexOfPrincipal(list, entry.principal) >= 0) return list;
  const at = Math.min(index, list.length);
  return [...list.slice(0, at), entry, ...list.slice(at)];
}

export function moveEntry(list: WatchList, principal: string, toIndex: number): WatchList {
  const from = indexOfPrincipal(list, principal);
  const entry = list[from];
  const to = Math.max(0, Math.min(list.length - 1, toIndex));
  if (!entry || from === to) return list;
  const without = list.filter((_, i) => i !== from);
  return [...without.slice(0, to), entry, ...without.slice(to)];
}

/** Appends the incoming entries that are not watched yet, in their order; the list's own entries win. Repeats are skipped. */
export function mergeEntries(
  list: WatchList,
  incoming: readonly WatchEntry[],
): { list: WatchList; added: number; skipped: number } {
  const seen = new Set(list.map((entry) => entry.principal));
  const fresh: WatchEntry[] = [];
  for (const entry of incoming) {
    if (seen.has(entry.principal)) continue;
    seen.add(entry.principal);
    fresh.push(entry);
  }
  return { list: [...list, ...fresh], added: fresh.length, skipped: incoming.length - fresh.length };
}
