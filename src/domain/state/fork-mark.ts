import { lowerFloor, type AlertLedger } from '../alerts/alert-ledger.ts';
import type { AddressSnapshot } from './snapshot.ts';

/**
 * The deepest re-org looked for: a node keeps deeper forks to itself, and a monitor remembers this many blocks to
 * tell a re-org nobody announced (monitor/block-trail.ts).
 */
export const DEEPEST_REORG = 16;

/**
 * The snapshot, marked as holding what a re-org from `height` up may have mined. The mark travels with the
 * transactions the new fork brings into the snapshot (it is stored in the same write, or an earlier one), so that the
 * alerts can judge them again after a restart even when the re-org itself was never stored on their side.
 */
export function markForked(snapshot: AddressSnapshot, height: number): AddressSnapshot {
  const known = snapshot.forkedFrom;
  return typeof known === 'number' && known <= height ? snapshot : { ...snapshot, forkedFrom: height };
}

/** The lowest height a re-org replaced under this snapshot, when one did (a damaged mark reads as none). */
export const forkedFrom = (snapshot: AddressSnapshot): number | null =>
  typeof snapshot.forkedFrom === 'number' && Number.isInteger(snapshot.forkedFrom) ? snapshot.forkedFrom : null;

/**
 * The ledger after a re-org from `height` up: what is mined there may be new, even at or below the heights the first
 * sync took for history. A re-org replaces blocks within DEEPEST_REORG of the tip, and the floor is never above the
 * tip, so a fork that deep under the floor is an old one met again (the snapshot's mark, at a later start): the floor
 * stays, and what its evictions let go of is not told again.
 */
export function afterFork(ledger: AlertLedger, height: number): AlertLedger {
  return height > ledger.floor - DEEPEST_REORG ? lowerFloor(ledger, height - 1) : ledger;
}
