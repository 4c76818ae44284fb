import { formatStx } from '../amount.ts';
import { amountText, type Naming } from './effect-text.ts';
import type { Activity, Movement } from '../state/snapshot.ts';

/** A transaction's status in a person's words, with the reason the node gave. */
export function statusWords(activity: Activity): { readonly word: string; readonly reason: string | null } {
  const detail = activity.statusDetail ?? activity.status;
  switch (detail) {
    case 'success':
      return { word: 'Confirmed', reason: null };
    case 'pending':
      return { word: 'Pending', reason: 'Waiting in the mempool to be mined.' };
    case 'abort_by_response':
      return {
        word: 'Failed',
        reason: activity.attempt?.result
          ? `The contract refused it: its call returned ${activity.attempt.result}. Only the fee was paid.`
          : 'The contract refused it (its call returned an error): only the fee was paid.',
      };
    case 'abort_by_post_condition':
      return { word: 'Failed', reason: 'A post-condition did not hold, so nothing moved: only the fee was paid.' };
    case 'problematic_skipped':
      return { word: 'Skipped', reason: 'The miners skipped it as problematic.' };
    case 'dropped_replace_by_fee':
      return {
        word: 'Replaced',
        reason: 'Another transaction with the same nonce and a higher fee took its place: this one moved nothing.',
      };
    case 'dropped_replace_across_fork':
      return { word: 'Dropped', reason: 'Its block was orphaned by a chain re-organisation.' };
    case 'dropped_too_expensive':
      return { word: 'Dropped', reason: 'Too expensive for the node to keep in its mempool.' };
    case 'dropped_stale_garbage_collect':
      return { word: 'Dropped', reason: 'It waited too long in the mempool.' };
    case 'dropped_problematic':
      return { word: 'Dropped', reason: 'The node found it problematic.' };
    default:
      return activity.status === 'failed'
        ? { word: 'Failed', reason: `The node says “${detail}”.` }
        : { word: activity.status === 'dropped' ? 'Dropped' : 'Confirmed', reason: null };
  }
}

/** The status as one line, as the transaction's detail and the CSV export say it: "Failed — A post-condition did not hold…". */
export function statusLine(activity: Activity): string {
  const { word, reason } = statusWords(activity);
  return reason ? `${word} — ${reason}` : word;
}

export interface MovementLine {
  readonly what: string;
  readonly kind: Movement['kind'];
  /** Named as the user knows them; null for a mint's source or a burn's destination. */
  readonly from: string | null;
  readonly to: string | null;
}

/**
 * Every movement of the transaction, both parties named ("84.00 STX", "Vault contract" → "Alice"); null while its
 * events are still to be read. A failed one moved nothing, read or not: the chain rolled its effects back.
 */
export function movementLines(activity: Activity, naming: Naming): MovementLine[] | null {
  if (activity.status === 'failed') return [];
  if (!activity.movements) return null;
  return activity.movements.map((movement) => ({
    what: amountText(
      {
        type: movement.type,
        assetIdentifier: movement.assetIdentifier,
        net: movement.amount,
        how: movement.kind,
        counterparties: [],
        nftIds: movement.nftId ? [movement.nftId] : [],
      },
      naming,
    ),
    kind: movement.kind,
    from: movement.sender ? naming.party(movement.sender) : null,
    to: movement.recipient ? naming.party(movement.recipient) : null,
  }));
}

/** The Movements line of a transaction that lists none: a failed one that was mined still paid its fee. */
export const nothingMovedText = (activity: Activity): string =>
  activity.status === 'failed' && activity.blockHeight !== null ? 'Nothing moved; the fee was paid.' : 'Nothing moved.';

export const feeText = (activity: Activity): string => formatStx(activity.fee);
