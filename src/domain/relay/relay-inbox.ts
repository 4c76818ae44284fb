import { sameState, type AlertPhase } from '../alerts/alert-ledger.ts';
import { entryState, type DeliveryVia, type InboxEntry } from '../alerts/inbox.ts';
import type { RelayAlert } from './relay-message.ts';

/** Deliveries that put an alert state in front of the user (a toast counts: it was seen while the app was open). */
const SHOWN: readonly DeliveryVia[] = ['notification', 'summary', 'toast'];

/**
 * How this phase of an alert was already shown, by the open app or by an earlier push (null: not yet): among the
 * deliveries since the alert last was in another phase (confirmed, reverted, then confirmed again on the new fork is
 * news). Deliveries keep phases: a failure's new outcome (holdsState) counts as shown the way its first was.
 */
export function shownVia(entry: InboxEntry | undefined, phase: AlertPhase): DeliveryVia | null {
  const deliveries = entry?.deliveries ?? [];
  for (let index = deliveries.length - 1; index >= 0; index -= 1) {
    const delivery = deliveries[index]!;
    if (delivery.phase !== phase) return null;
    if (SHOWN.includes(delivery.via)) return delivery.via;
  }
  return null;
}

/** Whether this phase of an alert was already shown (see shownVia). */
export const stateShown = (entry: InboxEntry | undefined, phase: AlertPhase): boolean =>
  shownVia(entry, phase) !== null;

/**
 * Whether the entry holds the alert's state: its phase and, for a mined failure, the same outcome (sameState). A
 * stake skipped as problematic in a block a re-org orphaned and refused by the contract on the new fork is "failed"
 * twice, told in other words: the second is news.
 */
export const holdsState = (entry: InboxEntry | undefined, alert: RelayAlert): boolean =>
  sameState(entryState(entry), { phase: alert.phase, detail: alert.facts?.activity?.statusDetail });

/**
 * Whether a relay push of this state tells nothing: its phase was shown already (the entry may have moved on since: a
 * late push never takes it back), unless the entry holds that phase in another outcome (a failure skipped as
 * problematic, then refused on a new fork: news, told in the new words); or it is a late pending after the app saw it
 * mined.
 */
export function pushTellsNothing(before: InboxEntry | undefined, alert: RelayAlert): boolean {
  const outcomeChanged = before?.phase === alert.phase && !holdsState(before, alert);
  return (
    (stateShown(before, alert.phase) && !outcomeChanged) || (isStale(before, alert) && before?.phase !== alert.phase)
  );
}

/** Mined states that a late "pending" from the other source must not overwrite. */
const SETTLED: readonly AlertPhase[] = ['confirmed', 'failed'];

/**
 * Whether a relay alert tells nothing the entry does not already hold: the same state, or a pending that the app
 * already saw mined (the two sources may arrive in either order). A pending back in the mempool after a re-org
 * (`afterRevert`) is news over a mined entry that has not been through a revert since: the revert may never have
 * reached this device (told in the same batch, or replaced at the push service by this later state).
 */
export function isStale(entry: InboxEntry | undefined, alert: RelayAlert): boolean {
  if (!entry) return false;
  if (entry.phase === alert.phase) return holdsState(entry, alert);
  if (alert.phase !== 'pending' || !SETTLED.includes(entry.phase)) return false;
  return !alert.afterRevert || revertedSinceMined(entry);
}

/** Whether the entry's deliveries tell it reverted (or back pending) after it was first told mined. */
function revertedSinceMined(entry: InboxEntry): boolean {
  let mined = false;
  for (const { phase } of entry.deliveries) {
    if (SETTLED.includes(phase)) mined = true;
    else if (mined) return true;
  }
  return false;
}

/**
 * The inbox entry after a relay alert: its state and words. The words the app wrote itself (with the user's label,
 * which the relay never learns) are kept when the state is the same; deliveries are kept, unread again (read when
 * quiet: another alert tells it).
 */
export function withRelayAlert(entry: InboxEntry | undefined, alert: RelayAlert): InboxEntry {
  const same = holdsState(entry, alert);
  return {
    id: alert.id,
    network: alert.network,
    principal: alert.principal,
    txId: alert.txId ?? entry?.txId ?? null,
    phase: alert.phase,
    title: same && entry ? entry.title : alert.title,
    body: same && entry ? entry.body : alert.body,
    path: alert.path,
    firstAt: entry?.firstAt ?? alert.at,
    at: same && entry ? entry.at : alert.at,
    read: same && entry ? entry.read : alert.quiet === true,
    deliveries: entry?.deliveries ?? [],
    undelivered: false,
    // The inbox tells a transfer between two watched addresses as one row from these (inbox-pairs.ts).
    ...(alert.facts ? { facts: alert.facts } : entry?.facts ? { facts: entry.facts } : {}),
    ...(alert.quiet ? { quiet: true } : {}),
  };
}

/**
 * Records how the entry's current state reached the user (once per phase and way: a failure's new outcome told the
 * way the first was is not recorded twice), and that it has.
 */
export function withShown(entry: InboxEntry, via: DeliveryVia, at: number): InboxEntry {
  const last = entry.deliveries.at(-1);
  if (last?.phase === entry.phase && last.via === via)
    return entry.undelivered ? { ...entry, undelivered: false } : entry;
  return { ...entry, undelivered: false, deliveries: [...entry.deliveries, { phase: entry.phase, via, at }] };
}
