import { middleEllipsis } from '../address/middle-ellipsis.ts';
import { failedWords, headline, partiesLine, type Naming } from './effect-text.ts';
import type { Activity } from '../state/snapshot.ts';
import { toldEffect } from './told-effect.ts';

/** `ST3TBR…J7X4`: the one short form of an address (see middleEllipsis). */
export const shortPrincipal = middleEllipsis;

/** Names when nothing better is known: short addresses, tokens by their asset names. */
export const PLAIN_NAMING: Naming = { token: () => undefined, party: (principal) => shortPrincipal(principal) };

/**
 * What happened to `principal`, in a few words a person understands at a glance: its own net movement ("Received
 * 84.00 STX" for a contract call that paid it), the call made when nothing moved, the fee left apart.
 */
export function describeActivity(activity: Activity, principal: string, naming: Naming = PLAIN_NAMING): string {
  if (activity.status === 'failed') return failedWords(activity);
  const tense = activity.status === 'pending' || activity.status === 'dropped' ? 'pending' : 'done';
  const what = headline(activity, toldEffect(activity, principal), tense, naming, true);
  if (activity.status === 'dropped') return `Dropped: ${what}`;
  return activity.status === 'pending' ? `${what} — pending` : what;
}

/** "From Vault contract · via demo-vault.withdraw": the other party of the movement, never the token's contract. */
export const describeParties = (activity: Activity, principal: string, naming: Naming = PLAIN_NAMING): string | null =>
  partiesLine(activity, toldEffect(activity, principal), naming);
