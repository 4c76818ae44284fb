import { middleEllipsis } from '../address/middle-ellipsis.ts';
import { failedWords, headline, partiesLine, type Naming } from './effect-text.ts';
import type { Activity } from '../state/snapshot.ts';
import { toldEffect } from './told-effect.ts';

/**
 * Replaced by a transaction of the same nonce paying more (a wallet's "speed up", or its cancel), as the node says
 * (`dropped_replace_by_fee`, which state/snapshot.ts's supersededBy says too where the mined one paid more). Told as
 * "Fee raised", never as a loss: nothing of it moved, and its replacement is told as itself.
 */
export const feeRaised = (activity: Activity): boolean => activity.statusDetail === 'dropped_replace_by_fee';

/**
 * What a dropped transaction's words start with: where a replacement paying more took its place, "Fee raised" to its
 * signer (who raised it, to speed it up or to cancel it) and "Replaced" to anyone else (a cancel moves them nothing,
 * and a sped-up transfer is told again as itself).
 */
export const droppedWord = (activity: Activity, signed: boolean): string =>
  feeRaised(activity) ? (signed ? 'Fee raised' : 'Replaced') : 'Dropped';

/** `ST3TBR…J7X4`: the one short form of an address (see middleEllipsis). */
export const shortPrincipal = middleEllipsis;

/** Names when nothing better is known: short addresses, tokens by their asset names. */
export const PLAIN_NAMING: Naming = { token: () => undefined, party: (principal) => shortPrincipal(principal) };

/**
 * What happened to `principal`, in a few words a person understands at a glance: its own net movement ("Received
 * 84.00 STX" for a contract call that paid it), the call made when nothing moved, the fee left apart; what became of it
 * in its alert's word ("Dropped: …", "Fee raised: …").
 */
export function describeActivity(activity: Activity, principal: string, naming: Naming = PLAIN_NAMING): string {
  if (activity.status === 'failed') return failedWords(activity);
  const tense = activity.status === 'pending' || activity.status === 'dropped' ? 'pending' : 'done';
  const what = headline(activity, toldEffect(activity, principal), tense, naming, true);
  // As its alert says it: a transaction replaced by one of its nonce paying more is its signer's "Fee raised".
  if (activity.status === 'dropped') return `${droppedWord(activity, activity.sender === principal)}: ${what}`;
  return activity.status === 'pending' ? `${what} — pending` : what;
}

/** "From Vault contract · via demo-vault.withdraw": the other party of the movement, never the token's contract. */
export const describeParties = (activity: Activity, principal: string, naming: Naming = PLAIN_NAMING): string | null =>
  partiesLine(activity, toldEffect(activity, principal), naming);
